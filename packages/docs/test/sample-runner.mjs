// Runs the transpiled TypeScript samples named on the command line in one Node process, one after
// another, each to its end (top-level await included), and prints one JSON object on stdout: per
// file, what it logged, what it wrote as an error or warning, and the error it ended with, if any.
// One process for all: starting Node and loading the client once per sample cost more than the samples.
import { pathToFileURL } from "node:url";
import { format } from "node:util";

const results = {};
const write = process.stdout.write.bind(process.stdout);
for (const file of process.argv.slice(2)) {
  const stdout = [];
  const stderr = [];
  console.log = console.info = (...args) => stdout.push(format(...args));
  console.error = console.warn = (...args) => stderr.push(format(...args));
  const result = {};
  try {
    await import(pathToFileURL(file).href);
  } catch (error) {
    result.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  results[file] = { ...result, stdout: stdout.join("\n"), stderr: stderr.join("\n") };
}
write(JSON.stringify(results));

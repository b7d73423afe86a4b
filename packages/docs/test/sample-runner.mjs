// Runs the transpiled TypeScript samples named on the command line in one Node process, one after
// another, each to its end (top-level await included), and prints one JSON line per file as it
// ends: what it logged, what it wrote as an error or warning, and the error it ended with, if any.
// One process for all: starting Node and loading the client once per sample cost more than the
// samples. A sample that has not ended after SAMPLE_TIMEOUT is reported so and the next one runs.
import { pathToFileURL } from "node:url";
import { format } from "node:util";

/** Generous, never a measure of speed: a sample waits for its task at the spec's polling interval. */
const SAMPLE_TIMEOUT = 60_000;

const write = process.stdout.write.bind(process.stdout);
for (const file of process.argv.slice(2)) {
  const stdout = [];
  const stderr = [];
  console.log = console.info = (...args) => stdout.push(format(...args));
  console.error = console.warn = (...args) => stderr.push(format(...args));
  const result = { file };
  let timer;
  try {
    await Promise.race([
      import(pathToFileURL(file).href),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`did not end within ${SAMPLE_TIMEOUT} ms`)),
          SAMPLE_TIMEOUT,
        );
      }),
    ]);
  } catch (error) {
    result.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
  } finally {
    clearTimeout(timer);
  }
  write(`${JSON.stringify({ ...result, stdout: stdout.join("\n"), stderr: stderr.join("\n") })}\n`);
}
// What a sample that did not end left running is not waited for.
process.exit(0);

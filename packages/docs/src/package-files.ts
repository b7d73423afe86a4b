// The site is made of the files in this package's assets/ and guides/, and of nothing else on the
// machine. Every read and copy follows a symbolic link (copyFileSync copies its target), so a
// committed `assets/passwd.css -> /etc/passwd` would publish that file with the site: a file whose
// real path leaves the package is refused. A link that stays inside it is followed, as it can only
// show what the package already holds.
import { readlinkSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, sep } from "node:path";

/**
 * The real path of `file`, a file of the package at `root`; throws, naming the file as the package
 * has it, when it is not a file or its real path (a link, or a folder on the way that is one) lies
 * outside the package.
 */
export function packageFile(root: string, file: string): string {
  const name = relative(root, file);
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    let target = "";
    try {
      target = ` (a link to ${readlinkSync(file)}, which does not exist)`;
    } catch {
      // Not a link: the file itself is missing.
    }
    throw new Error(`${name} does not exist${target}.`);
  }
  const packageRoot = realpathSync(root);
  const within = relative(packageRoot, real);
  if (within === ".." || within.startsWith(`..${sep}`) || isAbsolute(within))
    throw new Error(
      `${name} links to ${real}, outside the docs package (${packageRoot}): the build reads and copies ` +
        "only files inside the package (a link to another of its files is followed). Put the file itself there instead of the link.",
    );
  if (!statSync(real).isFile()) throw new Error(`${name} is not a file (it is ${real}); expected a file.`);
  return real;
}

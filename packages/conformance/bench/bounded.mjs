// What each bench here does around its work: a watchdog that ends a run still going past its
// deadline, what it started closed in the reverse order whatever happens, and exit 1 when it
// crashed (a figure missed is reported by the bench itself, not failed).

/** The bench's closers (push what it starts) and `run(main)`, which keeps the rules above. */
export function bounded(deadlineMs) {
  const closers = [];
  const watchdog = setTimeout(() => {
    console.error(`bench: still running after ${deadlineMs / 1000} s, giving up`);
    process.exit(1);
  }, deadlineMs);
  watchdog.unref();
  async function run(main) {
    let crashed = false;
    try {
      await main();
    } catch (error) {
      crashed = true;
      console.error(`bench: ${error?.stack ?? error}`);
    } finally {
      for (const close of closers.reverse())
        try {
          await close();
        } catch (error) {
          crashed = true;
          console.error(`bench: closing failed: ${error?.message ?? error}`);
        }
      clearTimeout(watchdog);
    }
    if (crashed) process.exitCode = 1;
  }
  return { closers, run };
}

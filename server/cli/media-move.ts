/** `npm run media:move -- --to s3|database`: see media-move-command.ts. Ctrl-C stops it after the current image. */
import { mediaMoveCommand } from "./media-move-command";

const stop = new AbortController();
process.once("SIGINT", () => {
  process.stderr.write("Stopping after the current image…\n");
  stop.abort();
});
process.once("SIGTERM", () => stop.abort());

process.exit(
  await mediaMoveCommand(
    process.argv.slice(2),
    process.env,
    {
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
    },
    { signal: stop.signal },
  ),
);

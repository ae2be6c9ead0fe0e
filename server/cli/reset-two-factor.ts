/** `npm run reset-two-factor -- EMAIL`: see reset-two-factor-command.ts. */
import { resetTwoFactorCommand } from "./reset-two-factor-command";

process.exit(
  await resetTwoFactorCommand(process.argv.slice(2), process.env, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }),
);

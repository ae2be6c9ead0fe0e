/**
 * knip's findings as one JSON line, for scripts/deps-check.ts: the unused dependencies and devDependencies, the
 * packages imported without being listed, and knip's configuration hints (an entry of knip.jsonc that no longer does
 * anything, e.g. a package ignored there that the code now imports). knip's own JSON reporter leaves the hints out.
 */
export default function report({ issues, configurationHints }) {
  const list = (records) =>
    Object.values(records).flatMap((bySymbol) =>
      Object.values(bySymbol).map((issue) => ({ name: issue.symbol, file: issue.filePath })),
    );
  process.stdout.write(
    JSON.stringify({
      dependencies: list(issues.dependencies),
      devDependencies: list(issues.devDependencies),
      unlisted: list(issues.unlisted),
      hints: configurationHints.map((hint) => ({
        type: hint.type,
        identifier: String(hint.identifier),
        file: hint.filePath,
      })),
    }) + "\n",
  );
}

// Fails when a TypeScript file uses a non-null assertion (`value!`): the program must get by on
// what the generated types promise. Usage: node no-non-null.mjs file.ts ...
import { readFileSync } from "node:fs";
import ts from "typescript";

let found = 0;
for (const path of process.argv.slice(2)) {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.NonNullExpression) {
      const { line, character } = source.getLineAndCharacterOfPosition(node.getStart());
      console.error(`${path}:${line + 1}:${character + 1}: non-null assertion: ${node.getText()}`);
      found += 1;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
process.exit(found === 0 ? 0 : 1);

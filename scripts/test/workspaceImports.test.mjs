// No workspace imports another by a relative path (scripts/workspaces/relativeImports.mjs): the
// real tree, and a planted tree that shows the check finds each form of import.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { crossWorkspaceImports } from '../workspaces/relativeImports.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function plant(root, files) {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
}

describe('workspaces import each other only by package name', () => {
  it('holds for every source, test, bench and config file of the tree', () => {
    assert.deepEqual(crossWorkspaceImports(ROOT), []);
  });

  describe('on a planted tree', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'miniqueue-imports-'));
    after(() => rmSync(root, { recursive: true, force: true }));
    plant(root, {
      'package.json': JSON.stringify({ workspaces: ['a', 'b'] }),
      'a/src/ok.ts': "import { x } from './x.js';\nimport { y } from '../test/y.js';\nimport { z } from '@scope/b/testing';\n",
      'a/test/far.test.ts': [
        "import { x } from './x.js';",
        "import { start } from '../../b/test/helpers/broker.js';",
        "import type { T } from '../../b/src/types.js';",
        "export { u } from '../../b/src/u.js';",
        "const late = await import('../../b/src/late.js');",
        '',
      ].join('\n'),
      'a/bench/old.cjs': "const b = require('../../b/bench/shared.cjs');\n",
      'a/test/tool.test.ts': "import { check } from '../../scripts/check.mjs';\n",
      'a/vitest.config.ts': "export default { test: { globalSetup: ['../b/test/setup.ts'], setupFiles: ['./test/setup.ts'] } };\n",
      'a/node_modules/dep/index.js': "import '../../../b/src/index.js';\n",
      'b/src/index.ts': "import { a } from './a.js';\n",
    });

    it('finds each relative import that leaves its workspace, with its line, and nothing else', () => {
      assert.deepEqual(crossWorkspaceImports(root).sort(), [
        "a/bench/old.cjs:1 imports '../../b/bench/shared.cjs'",
        "a/test/far.test.ts:2 imports '../../b/test/helpers/broker.js'",
        "a/test/far.test.ts:3 imports '../../b/src/types.js'",
        "a/test/far.test.ts:4 imports '../../b/src/u.js'",
        "a/test/far.test.ts:5 imports '../../b/src/late.js'",
        "a/vitest.config.ts:1 imports '../b/test/setup.ts'",
      ]);
    });
  });
});

// The layers of src/, held by dependency-cruiser (`npm run check:layers`, part of
// `npm test`). From the bottom up:
//   src/domain   pure TypeScript: schemas, review model, catalog, insights, feeds...
//   src/build    reads content and writes a build, on top of the domain
//   src/server   the runtime: HTTP, MCP, WebSub, on top of domain and build
//   src/pages, src/components, src/layouts, src/content.config.ts   Astro, on top
// An arrow may point down, never up, and never round in a circle: each layer can then
// be read, tested and changed without the ones above it.
//
// Run it through `npm run check:layers` (scripts/check-layers.ts), which also reads
// the imports of .astro files; depcruise on its own does not parse them.

const ASTRO = '^src/(pages|components|layouts)/|^src/content[.]config[.]ts$|^src/astro-entry[.]ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-only-domain',
      severity: 'error',
      comment:
        'The domain is the bottom layer: build, server, pages and scripts all use it, so ' +
        'it can use none of them without making a cycle of layers.',
      from: { path: '^src/domain/' },
      to: { path: ['^src/(build|server|pages|components|layouts)/', '^src/content[.]config[.]ts$', '^scripts/'] },
    },
    {
      name: 'domain-does-no-io',
      severity: 'error',
      comment:
        'Domain code is pure, so tests run it without files, sockets or processes, and ' +
        'the same input gives the same output. node:crypto stays allowed: hashing and ' +
        'HMAC are computations on bytes (ETags, signatures), not I/O.',
      from: { path: '^src/domain/' },
      to: { dependencyTypes: ['core'], pathNot: '^(node:)?crypto$' },
    },
    {
      name: 'build-below-server-and-pages',
      severity: 'error',
      comment:
        'The build runs before any server exists and the pages render from its output; ' +
        'reaching up into the server or the pages would tie a build to a running process.',
      from: { path: '^src/build/' },
      to: { path: ['^src/server/', ASTRO] },
    },
    {
      name: 'server-below-pages',
      severity: 'error',
      comment:
        'The server calls Astro\'s handler as its last step, through the build output; it ' +
        'never imports pages, components or layouts themselves.',
      from: { path: '^src/server/' },
      to: { path: ASTRO },
    },
    {
      name: 'server-http-below-routes',
      severity: 'error',
      comment:
        'src/server/http is the pipeline and its steps, shared by every route; a route or ' +
        'service it imported would run on every request and make a cycle of folders.',
      from: { path: '^src/server/http/' },
      to: { path: '^src/server/(?!http/)' },
    },
    {
      name: 'server-app-on-top',
      severity: 'error',
      comment:
        'src/server/app wires the process (configuration, route table, serve); the routes ' +
        'and services below it are wired by it, never the other way round.',
      from: { path: '^src/server/(?!app/)' },
      to: { path: '^src/server/app/' },
    },
    {
      name: 'pages-do-not-import-server',
      severity: 'error',
      comment:
        'Pages are data in, markup out: what they share with dynamic routes lives in the ' +
        'domain or the build, so the server can own every dynamic route.',
      from: { path: ASTRO },
      to: { path: '^src/server/' },
    },
    {
      name: 'no-file-cycles',
      severity: 'error',
      comment:
        'Files in a cycle can only be understood, tested and loaded together; one of them ' +
        'holds what the others share and belongs below them.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment:
        'A folder is a subsystem; two subsystems that import each other are one subsystem ' +
        'split in two. A folder counts the files of its subfolders as its own, so arrows ' +
        'between a folder and its own subfolders are left to no-file-cycles.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A module that nothing imports and that imports nothing is dead code.',
      from: { orphan: true, path: '^src/', pathNot: ['[.]d[.]ts$', '^src/pages/'] },
      to: {},
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to no file fails at run time (or in the build).',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Type-only imports count: a type from a higher layer ties a module to it just
    // the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};

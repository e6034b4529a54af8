/** Package names the core and Google entries must never load (matched against loaded file URLs). */
export declare const FORBIDDEN: RegExp;
/**
 * A scratch app whose node_modules links `mcp-error-policy` to `packageDir` and the repository's MCP SDK, and holds a
 * one-line package; `servers`: an McpServer alone, and one with applyErrorPolicy.
 */
export declare function makeScratchApp(packageDir: string): { dir: string; probe: string; servers: { alone: string; withLine: string }; cleanup: () => void };
/** Runs one of the scratch app's servers in a fresh process: wall time and the CPU time it reported. */
export declare function runApp(file: string, node?: string): { wallMs: number; cpuMs: number };
/** Runs the import probe in a fresh process. */
export declare function runProbe(probe: string, args: string[], node?: string): { out: unknown; wallMs: number };
/** Imports and requires `specifiers` in a fresh process: the forbidden packages it loaded, and every file it loaded. */
export declare function loadedModules(probe: string, specifiers: string[], node?: string): { forbidden: string[]; esm: string[]; cjs: string[] };

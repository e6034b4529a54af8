/** The repository root (with a trailing slash). */
export declare const ROOT: string;
/** True when the Google entry's source exists. */
export declare function hasGoogleEntry(): boolean;
/** Builds the package with tsdown.config.ts into `outDir` (default: the repository's dist/). */
export declare function buildPackage(options?: { outDir?: string; dts?: boolean }): { googleEntry: boolean; ms: number };

/** The types of patch-check.cjs, for the TypeScript tests that use it. */
export declare const patches: string;
export declare function installedDir(name: string, from: string): string;
export declare function unapplied(patch: string, dir: string): string[];

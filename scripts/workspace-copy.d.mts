/** Types of workspace-copy.mjs, for the TypeScript tests that import it. */
export declare const REPO: string;
export declare function guideFiles(section: string): Map<string, string>;
export declare function copyWorkspace(work: string, options?: { linked?: readonly string[] }): void;
export declare function copyApp(work: string, app: string, folder: string): string;

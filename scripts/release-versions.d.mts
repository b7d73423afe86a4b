export function workspaceDirs(root: string): string[];
export interface VersionedPackage {
  dir: string;
  name: string;
  isPrivate: boolean;
  before: string;
  after: string;
  manifest: Record<string, unknown>;
}
export function versionedWorkspace(root: string): {
  dir: string;
  packages: VersionedPackage[];
  remove(): void;
};
export function releaseVersions(root: string): Promise<Map<string, string>>;

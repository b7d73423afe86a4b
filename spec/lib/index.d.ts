export declare const bundlePath: string;
export declare function loadBundle(
  product?: "cloud" | "iam" | "streaming" | "security" | "storage",
): Record<string, unknown>;
export {
  createSpecValidator,
  pointer,
  type ResponseToValidate,
  resolveRef,
  type SpecValidator,
} from "./validator.js";

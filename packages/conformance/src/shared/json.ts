// Reading JSON the suite receives without trusting its shape: a target under test may send anything.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The member `name` of a JSON object, or undefined for anything else. */
export const fieldOf = (value: unknown, name: string): unknown => (isRecord(value) ? value[name] : undefined);

// negotiator 1.0's encoding negotiation, the one part src/compression.ts uses. Declared here, not
// taken from @types/negotiator: its types (0.6.x) predate 1.0's `preferred` option, the tie-break
// compression.ts needs. A default export: what an ES module's import of this CommonJS one receives.
declare module "negotiator" {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    /**
     * The encoding of `available` the `Accept-Encoding` header weighs highest, undefined when it
     * accepts none of them; on equal weights, the first of `preferred` (else the header's order).
     */
    encoding<Name extends string>(
      available: readonly Name[],
      options?: { preferred?: readonly Name[] },
    ): Name | undefined;
  }
}

/**
 * A JSON body that is already text, such as a page of pets as a shared store keeps them: the edge
 * writes it as it is instead of parsing it and serializing it again (BENCHMARKS.md, the Redis
 * section). The text must be the JSON of a value the contract allows there.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

// Answers kept by version: a read whose rows are all unchanged since an
// earlier call (the same rows at the same versions) answers the message it
// built then, frozen, so that the transports write that message's kept
// encodings again (frozen-replies.ts) instead of building and encoding it
// anew. The caller names the version of everything the answer is made of
// (an issue's etag changes with every write to it); any difference builds
// a new answer. The most recently used answers are kept, up to a bound.
import type { Message } from "@bufbuild/protobuf";
import { freezeMessage } from "../transport/frozen-replies.ts";

export class KeptAnswers<M extends Message> {
  readonly #answers = new Map<string, M>();
  readonly #limit: number;

  /** `limit`: answers kept at most (each with up to three encodings). */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** The answer kept for `version`, or the one `build` makes, frozen and kept. */
  answer(version: string, build: () => M): M {
    const kept = this.#answers.get(version);
    if (kept) {
      // Most recently used last: the Map's order is the eviction order.
      this.#answers.delete(version);
      this.#answers.set(version, kept);
      return kept;
    }
    const answer = freezeMessage(build());
    this.#answers.set(version, answer);
    if (this.#answers.size > this.#limit) this.#answers.delete(this.#answers.keys().next().value!);
    return answer;
  }
}

// A rule of the traffic judge: one of the suite's checks applied to exchanges a client made rather
// than to calls the suite makes. A rule that is a registry check (src/checks/) takes that check's
// id, severity and title, so an observed run reports `pagination.offset.count-stable.listRegions`
// exactly as an active run does; a rule that is one of the hand-written stories' rules
// (tasks.poll.state-moves-forward, rate-limit.retry-after-valid, …) keeps that scenario's id and
// severity (test/traffic-rules.test.ts holds them to the active run's).

import type { OperationModel } from "@platform-api/spec";
import type { Evidence, JudgedExchange, Severity } from "../../context.js";
import type { Answer } from "../../http.js";
import type { OffsetList } from "../../offset.js";
import type { PageList } from "../../pages.js";
import type { ObservedExchange } from "../exchange.js";

/** What the judge knows of the request's credentials: never the token, only its label and standing. */
export interface AuthSeen {
  /**
   * False when the traffic's credentials were not recorded (a browser's sanitized HAR export
   * drops every Authorization header): then no request's credentials can be judged.
   */
  recorded: boolean;
  /** The Authorization scheme sent ("APIKey"), undefined without the header. */
  scheme: string | undefined;
  /** "token 1", "token 2", … in the order tokens were first seen; undefined without one. */
  token: string | undefined;
  /** Which of the APIs ("client", "reseller": src/operations.ts keyFor) answered the token 2xx before this exchange. */
  acceptedBy: ReadonlySet<string>;
}

export interface AnswerEvent {
  exchange: ObservedExchange;
  operation: OperationModel;
  params: Record<string, string>;
  answer: Answer;
  evidence: Evidence;
  judged: JudgedExchange;
  auth: AuthSeen;
  /**
   * The same token's 2xx exchanges that started and ended within the spec's rate period ending
   * with this answer (this one included), and whether a 429 ended within that period.
   */
  recent: { succeeded: number; limited: boolean };
}

export interface OffsetPageEvent extends AnswerEvent {
  list: OffsetList;
  offset: number;
  /** The limit the request gave, else the spec's default (undefined when it states none). */
  limit: number | undefined;
  count: number;
  items: number;
  /** Identities of this page's items already seen earlier in the same walk. */
  repeated: string[];
  /** Whether this page continues a walk (same list, filters and limit; offset where the last page ended). */
  continues: boolean;
  /** The count the walk's earlier pages gave. */
  walkCount: number | undefined;
  /**
   * Set when this page ends a walk that started at offset 0 and went page after page to
   * offset >= count: how many distinct items the walk visited (undefined when it kept too many to count).
   */
  visitedAtEnd: number | undefined;
}

export interface PagePageEvent extends AnswerEvent {
  list: PageList;
  query: URLSearchParams;
  page: number;
  limit: number | undefined;
  /** The count the answer sent, undefined when it left it out. */
  count: number | undefined;
  items: number;
  next: string | null;
  previous: string | null;
}

export interface TaskEvent extends AnswerEvent {
  taskId: string;
  state: string;
  /** The state the task had when last seen, if it was seen. */
  before: string | undefined;
  body: Record<string, unknown>;
  /** The `created_resources` key of the operation that started the task, when the traffic showed it. */
  createdResourcesKey: string | undefined;
}

export interface TrafficEvents {
  answer: AnswerEvent;
  offsetPage: OffsetPageEvent;
  pagePage: PagePageEvent;
  task: TaskEvent;
}

/** A problem found (the message), null when the exchange holds to the rule, undefined when the rule does not judge it. */
export type Verdict = string | null | undefined;

export interface TrafficRule<E extends keyof TrafficEvents = keyof TrafficEvents> {
  id: string;
  severity: Severity;
  /** `${id}.${operationId}` per operation (a registry check) or `id` alone (a story's rule). */
  perOperation: boolean;
  /** What it judges, in words (the README's table). */
  judges: string;
  on: E;
  applies(operation: OperationModel): boolean;
  title(operation: OperationModel): string;
  judge(event: TrafficEvents[E]): Verdict;
}

/** Widens a rule for the registry's list (each rule is typed by its own event). */
export const rule = <E extends keyof TrafficEvents>(r: TrafficRule<E>): TrafficRule =>
  r as unknown as TrafficRule;

/** The id, severity and title of a registry check, for the rule that applies it to traffic. */
export const fromCheck = (check: {
  id: string;
  severity: Severity;
  applies(operation: OperationModel): boolean;
  title(operation: OperationModel): string;
}) => ({
  id: check.id,
  severity: check.severity,
  perOperation: true,
  applies: (operation: OperationModel) => check.applies(operation),
  title: (operation: OperationModel) => check.title(operation),
});

// A rule of the suite: one small function over exchanges, whoever made them (an active run's
// drivers and stories, a client `observe` saw, a HAR file). It names the operations it applies to
// from the spec model (every operation, every x-pagination list of a style, every poll of a task,
// …), the event it judges (an answer, a page of a list, a task's state) and, for active runs, what
// a run needs for its verdict to mean something (a server that keeps state, the reseller key, …).
// The judge (src/judge/judge.ts) keeps the state across exchanges that events carry.

import type { OperationModel } from "@platform-api/spec";
import type { OffsetList } from "../facts/offset.js";
import type { PageList } from "../facts/pages.js";
import type { Answer } from "../http/answer.js";
import type { Evidence, JudgedExchange, Need, Severity } from "../shared/context.js";
import type { ObservedExchange } from "../shared/exchange.js";

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
  /** Which of the APIs ("client", "reseller": src/facts/operations.ts keyFor) answered the token 2xx before this exchange. */
  acceptedBy: ReadonlySet<string>;
  /** Which of an active run's keys it is (ObservedExchange.tokenRole); undefined in traffic. */
  role: "client" | "reseller" | undefined;
}

export interface AnswerEvent {
  exchange: ObservedExchange;
  operation: OperationModel;
  params: Record<string, string>;
  /** The request's query. */
  query: URLSearchParams;
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

/** Where a page stands in its walk: the pages of one list with the same filters, ordering and limit. */
export interface WalkView {
  /** Whether this page continues a walk (the next page not yet seen in it). */
  continues: boolean;
  /** The count the walk's earlier pages gave. */
  walkCount: number | undefined;
  /** Identities of this page's items already seen on another page of the walk. */
  repeated: string[];
  /**
   * Set when the walk has now seen every page from the first to the one that reaches count: how
   * many distinct items it visited (undefined when it kept too many to count).
   */
  visitedAtEnd: number | undefined;
  /** The last item of the page before this one in the walk, and the first of the one after, when seen. */
  before: unknown;
  after: unknown;
}

interface ListPage {
  /** The page's items, as sent. */
  itemList: unknown[];
  /** How many items the page holds. */
  items: number;
  /** The limit the request gave, else the spec's default (undefined when it states none). */
  limit: number | undefined;
  /** Whether the request named the limit. */
  limitAsked: boolean;
  walk: WalkView;
}

export interface OffsetPageEvent extends AnswerEvent, ListPage {
  list: OffsetList;
  offset: number;
  count: number;
}

export interface PagePageEvent extends AnswerEvent, ListPage {
  list: PageList;
  page: number;
  /** The count the answer sent, undefined when it left it out. */
  count: number | undefined;
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

export interface RuleEvents {
  answer: AnswerEvent;
  offsetPage: OffsetPageEvent;
  pagePage: PagePageEvent;
  task: TaskEvent;
}

/** A problem found (the message), null when the exchange holds to the rule, undefined when the rule does not judge it. */
export type Verdict = string | null | undefined;

export interface Rule<E extends keyof RuleEvents = keyof RuleEvents> {
  id: string;
  severity: Severity;
  /** Results `${id}.${operationId}`, one per operation it applies to; else one result `id`. */
  perOperation: boolean;
  /**
   * Whether it says a request must be refused, or answered one status (401, 403, 404, 429): such a
   * rule fails when the request is let in (2xx) as well as refused otherwise, and the defect
   * catalogue (test/defects.ts) plants an "accepts" defect for it. Every rule says so, one way or
   * the other: a new rule decides.
   */
  refuses: boolean;
  /** The operations it applies to, in words (the README's table, the dry run). */
  appliesTo: string;
  /** What it judges, in words. */
  judges: string;
  on: E;
  applies(operation: OperationModel): boolean;
  title(operation: OperationModel): string;
  /**
   * What an active run needs for the verdict to mean something (a server that keeps state, the
   * reseller key): unmet, the result is skipped with the reason. Default: calling the operation
   * (its key, its path's project and region).
   */
  needs?(operation: OperationModel): Need[];
  /** Why nothing was judged, when the exchanges held nothing the rule judges (default: none was seen). */
  unjudged?(operation: OperationModel): string;
  judge(event: RuleEvents[E]): Verdict;
}

/** Types a rule by its event, and widens it for the registry's list. */
export const rule = <E extends keyof RuleEvents>(r: Rule<E>): Rule => r as unknown as Rule;

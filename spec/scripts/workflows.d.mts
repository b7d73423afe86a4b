export declare const workflowsDir: string;

export interface WorkflowFile {
  file: string;
  name: string;
  /** The file's first workflow: its entry point. */
  workflowId: string;
  /** Input names the entry workflow declares. */
  inputs: string[];
}

export interface WorkflowRequest {
  stepId: string;
  method: string;
  url: string;
  status: number | undefined;
}

export interface WorkflowResult extends WorkflowFile {
  passed: boolean;
  ms: number;
  requests: WorkflowRequest[];
  failedChecks: string[];
  /** respect's output, token masked. */
  output: string;
}

export declare function listWorkflows(): WorkflowFile[];

/** Runs each workflow file's entry workflow with redocly respect against `baseUrl`. */
export declare function runWorkflows(options: {
  baseUrl: string;
  token: string;
  inputs?: Record<string, unknown>;
  only?: string[];
  timeoutMs?: number;
  /** respect's --verbose: every request and response in `output` (the token masked). */
  verbose?: boolean;
  /** Variables added to respect's environment (this process's, which it inherits otherwise). */
  env?: Record<string, string>;
  /**
   * Every file in one respect process rather than one each: each result's `passed`, `ms`,
   * requests and checks from respect's report, its `output` its file's part of respect's.
   */
  oneProcess?: boolean;
}): Promise<WorkflowResult[]>;

export declare function printResults(results: WorkflowResult[], log?: (line: string) => void): void;

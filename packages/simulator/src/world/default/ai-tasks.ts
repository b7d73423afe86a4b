// AI tasks of the default client: both task names and every status of the spec, 57 of them so
// that the page list has several pages, one started each hour or so before the epoch.
// `task_data` is not shown by the seed: the sample holds only the video's URL and the one
// parameter of each task name the platform documents (audio language, moderation category).

import type { AsDescribed } from "@platform-api/spec/generated/openapi";
import type { Random } from "../../random.js";
import { CONTENT_MODERATION_CATEGORIES } from "../platform-values.js";
import { enumOf } from "../spec-facts.js";
import type { AiTaskEntry } from "../types.js";
import { DEFAULT_CLIENT_ID } from "./clients.js";
import { EPOCH } from "./epoch.js";

type AiTask = AsDescribed<"AiTask">;

const VIDEOS = [
  "keynote",
  "interview",
  "product-demo",
  "webinar",
  "match-highlights",
  "town-hall",
  "tutorial",
];
/** The platform takes ISO 639-2 bibliographic codes ("ger", not "deu"). */
const AUDIO_LANGUAGES = ["eng", "ger", "fre", "spa"];
const HOUR_MS = 3_600_000;
/** The statuses of a task that no longer runs: it has a completion time and a total. */
const ENDED: readonly AiTask["status"][] = ["SUCCESS", "FAILURE", "REVOKED"];

export function aiTasks(doc: object, random: Random): AiTaskEntry[] {
  const statuses = enumOf(doc, "AiTaskStatus");
  const tasks: AiTaskEntry[] = [];
  for (let i = 0; i < 57; i++) {
    const status = statuses[i % statuses.length] as AiTask["status"];
    const task_name: AiTask["task_name"] = i % 3 === 0 ? "content-moderation" : "transcription";
    const url = `https://example.com/videos/${VIDEOS[(i * 5) % VIDEOS.length]}-${i}.mp4`;
    const progress =
      status === "SUCCESS" ? 100 : status === "PENDING" || status === "RECEIVED" ? 0 : random.int(1, 99);
    // The platform keeps the task's name inside task_data too (the seed puts it beside it).
    const data =
      task_name === "transcription"
        ? { task_name, url, audio_language: random.pick(AUDIO_LANGUAGES) }
        : { task_name, url, category: random.pick(CONTENT_MODERATION_CATEGORIES) };
    const task_data: AiTask["task_data"] = data;
    const startedMs = EPOCH - i * HOUR_MS - random.int(0, 3_599) * 1000;
    const started_at = new Date(startedMs).toISOString();
    // Not drawn: the tables drawn after this one keep their values.
    const runSeconds = 20 + ((i * 137) % 880);
    const ended = ENDED.includes(status);
    tasks.push({
      client_id: DEFAULT_CLIENT_ID,
      started_at,
      record: {
        task_id: random.uuid(),
        task_name,
        task_data,
        progress,
        status,
        processing_time: {
          started_at,
          completed_at: ended ? new Date(startedMs + runSeconds * 1000).toISOString() : null,
          total_time_sec: ended ? runSeconds : null,
        },
      },
    });
  }
  return tasks;
}

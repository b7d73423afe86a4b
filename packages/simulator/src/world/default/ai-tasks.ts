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

export function aiTasks(doc: object, random: Random): AiTaskEntry[] {
  const statuses = enumOf(doc, "AiTaskStatus");
  const tasks: AiTaskEntry[] = [];
  for (let i = 0; i < 57; i++) {
    const status = statuses[i % statuses.length] as AiTask["status"];
    const task_name: AiTask["task_name"] = i % 3 === 0 ? "content-moderation" : "transcription";
    const url = `https://example.com/videos/${VIDEOS[(i * 5) % VIDEOS.length]}-${i}.mp4`;
    const progress =
      status === "SUCCESS" ? 100 : status === "PENDING" || status === "RECEIVED" ? 0 : random.int(1, 99);
    const task_data: AiTask["task_data"] =
      task_name === "transcription"
        ? { url, audio_language: random.pick(AUDIO_LANGUAGES) }
        : { url, category: random.pick(CONTENT_MODERATION_CATEGORIES) };
    tasks.push({
      client_id: DEFAULT_CLIENT_ID,
      started_at: new Date(EPOCH - i * HOUR_MS - random.int(0, 3_599) * 1000).toISOString(),
      record: { task_id: random.uuid(), task_name, task_data, progress, status },
    });
  }
  return tasks;
}

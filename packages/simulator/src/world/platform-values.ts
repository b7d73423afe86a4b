// Values the platform is known to use where the spec states none, so that the sample data never
// contradict the platform. The spec leaves both open (Region.zone is "geographic zone", a free
// string; AiTask.task_data is x-unspecified): if it ever lists them, read them from there instead.

/** The platform's region zones. */
export const PLATFORM_REGION_ZONES = ["AMERICAS", "APAC", "EMEA", "RUSSIA_AND_CIS"] as const;
export type RegionZone = (typeof PLATFORM_REGION_ZONES)[number];

/** The platform's content-moderation categories (`task_data.category` of a content-moderation task). */
export const CONTENT_MODERATION_CATEGORIES = ["nsfw", "hard_nudity", "soft_nudity", "sport"] as const;
export type ContentModerationCategory = (typeof CONTENT_MODERATION_CATEGORIES)[number];

// The query parameters the description alone does not tell the simulator how to honour (query.ts
// derives the rest: paging, a filter on a field of the same name, `order_by=<field>.asc|desc`). Each
// says what it does, or why it is refused. The start stops when a parameter of the served
// description has neither a rule from query.ts nor one here, or when one here names a parameter
// the operation does not take.

import type { Item, QueryContext, QueryOverrides, QueryRule } from "../query.js";
import { compareValues } from "../query.js";

/** A date-time's instant; one without a zone offset is the platform's UTC (as created_on is written). */
export const instant = (text: string) => Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text}Z`);

const sortBy = (items: Item[], key: (item: Item) => unknown, direction: "asc" | "desc") => {
  const sign = direction === "desc" ? -1 : 1;
  return items.sort((a, b) => sign * compareValues(key(a), key(b)));
};

const createdOn = (item: Item) => instant(String(item.created_on));

/** Task order: order_by when sent, else the deprecated sorting when sent, else order_by's default. */
const taskOrder = (items: Item[], _value: unknown, { query, sent }: QueryContext) => {
  const direction = sent.has("order_by") || !sent.has("sorting") ? query.order_by : query.sorting;
  // Kept in creation order: reversed first, so tasks created in the same millisecond stay newest first.
  const list = direction === "desc" ? items.reverse() : items;
  return sortBy(list, createdOn, direction === "desc" ? "desc" : "asc");
};

const startedAt = (item: Item) =>
  String((item.processing_time as { started_at?: unknown } | undefined)?.started_at ?? "");

const paged: QueryRule = { kind: "page" };

const notSimulated = (why: string): QueryRule => ({ kind: "refuse", why });

const flavorId = (instance: Item) =>
  String((instance.flavor as { flavor_id?: unknown } | undefined)?.flavor_id ?? "");

const addressesOf = (instance: Item): string[] =>
  Object.values((instance.addresses as Record<string, { addr?: string }[]> | undefined) ?? {})
    .flat()
    .map((a) => String(a.addr ?? ""));

/** The world's instances are plain virtual machines: including a kind of which none exists selects the same. */
const allVirtualMachines = (kind: string): QueryRule => ({
  kind: "custom",
  phase: "filter",
  what: `true or false select the same: none of the simulator's instances is a ${kind} one`,
  apply: (items) => items,
});

export const QUERY_RULES: QueryOverrides = {
  items: { listTasks: "Task" },
  rules: {
    listTasks: {
      // The task list has no x-pagination; the platform pages it by limit and offset (the handler).
      limit: paged,
      offset: paged,
      order_by: {
        kind: "custom",
        phase: "order",
        what: "sorts by created_on, newest first by default",
        apply: taskOrder,
      },
      sorting: {
        kind: "custom",
        phase: "order",
        what: "the older name of order_by; order_by wins when both are sent",
        apply: (items) => items,
      },
      from_timestamp: {
        kind: "custom",
        phase: "filter",
        what: "keeps tasks created at or after it",
        apply: (items, value) => items.filter((t) => createdOn(t) >= instant(String(value))),
      },
      to_timestamp: {
        kind: "custom",
        phase: "filter",
        what: "keeps tasks created at or before it",
        apply: (items, value) => items.filter((t) => createdOn(t) <= instant(String(value))),
      },
      is_acknowledged: {
        kind: "custom",
        phase: "filter",
        // No operation of the description acknowledges a task, so none ever is.
        what: "true selects no task, false every task: the simulator's tasks are never acknowledged",
        apply: (items, value) => (value === true ? [] : items),
      },
    },
    listProjects: {
      // No x-pagination and no limit: the platform documents offset alone (the handler skips).
      offset: paged,
      include_deleted: {
        kind: "custom",
        phase: "filter",
        what: "false (the default) leaves out projects with a deleted_at; true keeps them",
        apply: (items, value) => (value === true ? items : items.filter((p) => p.deleted_at == null)),
      },
    },
    listInstances: {
      uuid: {
        kind: "custom",
        phase: "filter",
        what: "the instance with that id",
        apply: (items, v) => items.filter((i) => i.id === v),
      },
      flavor_id: {
        kind: "custom",
        phase: "filter",
        what: "instances of that flavor (flavor.flavor_id)",
        apply: (items, v) => items.filter((i) => flavorId(i) === v),
      },
      flavor_prefix: {
        kind: "custom",
        phase: "filter",
        what: "instances whose flavor_id starts with it",
        apply: (items, v) => items.filter((i) => flavorId(i).startsWith(String(v))),
      },
      exclude_flavor_prefix: {
        kind: "custom",
        phase: "filter",
        what: "instances whose flavor_id does not start with it",
        apply: (items, v) => items.filter((i) => !flavorId(i).startsWith(String(v))),
      },
      exclude_secgroup: {
        kind: "custom",
        phase: "filter",
        what: "instances without a security group of that name",
        apply: (items, v) =>
          items.filter(
            (i) => !((i.security_groups as { name?: string }[] | undefined) ?? []).some((g) => g.name === v),
          ),
      },
      ip: {
        kind: "custom",
        phase: "filter",
        what: "instances with an address that contains it",
        apply: (items, v) => items.filter((i) => addressesOf(i).some((a) => a.includes(String(v)))),
      },
      tag_value: {
        kind: "custom",
        phase: "filter",
        what: "instances with a tag of one of the values",
        apply: (items, v) => {
          const wanted = [v].flat().map(String);
          return items.filter((i) =>
            ((i.tags as { value?: string }[] | undefined) ?? []).some((t) =>
              wanted.includes(String(t.value)),
            ),
          );
        },
      },
      only_isolated: {
        kind: "custom",
        phase: "filter",
        what: "true keeps instances with an instance_isolation; false every instance",
        apply: (items, v) => (v === true ? items.filter((i) => i.instance_isolation != null) : items),
      },
      include_ai: allVirtualMachines("AI"),
      include_baremetal: allVirtualMachines("bare metal"),
      include_k8s: allVirtualMachines("Kubernetes"),
      with_ddos: {
        kind: "custom",
        phase: "filter",
        // ddos_profile is a required field of the merged spec's instance: it cannot be left out.
        what: "ddos_profile is in every instance either way (null without a profile): the spec requires the field",
        apply: (items) => items,
      },
      order_by: {
        kind: "custom",
        phase: "order",
        what: "sorts by created (created_at), name or status",
        apply: (items, v) => {
          const [key = "created", direction] = String(v).split(".");
          const field = key === "created" ? "created_at" : key;
          return sortBy(items, (i) => i[field], direction === "desc" ? "desc" : "asc");
        },
      },
      "changes-since": notSimulated("the simulator keeps no time an instance last changed."),
      "changes-before": notSimulated("the simulator keeps no time an instance last changed."),
      available_floating: notSimulated(
        "the simulator does not model which instances can take a floating IP.",
      ),
      only_with_fixed_external_ip: notSimulated("the simulator does not model fixed external addresses."),
      with_interfaces_name: notSimulated("interface names in addresses are not simulated."),
      profile_name: notSimulated("DDoS protection of instances is not simulated."),
      protection_status: notSimulated("DDoS protection of instances is not simulated."),
      type_ddos_profile: notSimulated("DDoS protection of instances is not simulated."),
      tag_key_value: notSimulated("the JSON key-value tag selection is not simulated; tag_value is."),
    },
    listRegions: {
      product: {
        kind: "refuse",
        why: "no field of a region says which ones offer containers or inference, so the selection cannot be made faithfully.",
      },
      show_volume_types: {
        kind: "custom",
        phase: "filter",
        // The platform answers null for false; the seed's region never has a null list, and it wins.
        what: "available_volume_types is listed either way: the seed requires the list, so false cannot make it null",
        apply: (items) => items,
      },
    },
    listAiTasks: {
      date_created: {
        kind: "custom",
        phase: "filter",
        what: "keeps tasks started at or after it (the simulator's reading)",
        apply: (items, value) => {
          const since = Date.parse(String(value));
          return Number.isNaN(since) ? items : items.filter((t) => Date.parse(startedAt(t)) >= since);
        },
      },
      search: {
        kind: "custom",
        phase: "filter",
        what: "case-insensitive, partial, over task_id, task_name, status and task_data",
        apply: (items, value) => {
          const needle = String(value).toLowerCase();
          return items.filter((t) =>
            [t.task_id, t.task_name, t.status, JSON.stringify(t.task_data)]
              .join(" ")
              .toLowerCase()
              .includes(needle),
          );
        },
      },
      ordering: {
        kind: "custom",
        phase: "order",
        what: "sorts ascending by the key; started_at is processing_time.started_at",
        apply: (items, value) =>
          sortBy(items, (t) => (value === "started_at" ? startedAt(t) : t[String(value)]), "asc"),
      },
    },
    putStorageNotificationEvent: {
      client_id: {
        kind: "handler",
        what: "whose settings are written: the caller's own client, 403 for another",
      },
    },
  },
};

/** The AI task list's order when `ordering` is not sent: started_at, newest first (the spec says so). */
export const aiTasksByDefault = <T extends object>(items: T[]): T[] =>
  sortBy(items as unknown as Item[], startedAt, "desc") as unknown as T[];

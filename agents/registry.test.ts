import { describe, expect, it } from "vitest";
import { toJsonSchema, type ToolSpecs } from "@/lib/engines/llm/tool-schema";
import { AGENT_CARDS, ROOT_AGENT } from "@/lib/foundation/protocol/agent-cards";
import { DraftViewSchema } from "@/lib/foundation/protocol/socket";
import { agentDescriptor, AGENT_DESCRIPTORS } from "./registry";

const THINKING = new Set(["thinking", "thoughts"]);

type Schema = { properties?: Record<string, { type?: string }>; required?: string[] };

/** tagged-calls.ts's rule for a tag holding plain text: the only non-thinking field, else the first required string field. */
function tagTextField(json: Schema): string | undefined {
  const own = Object.entries(json.properties ?? {}).filter(([name]) => !THINKING.has(name));
  if (own.length === 1) return own[0]![0];
  return own.find(([name, f]) => (json.required ?? []).includes(name) && f.type === "string")?.[0];
}

const toolsOf = (tools: Readonly<Record<string, ToolSpecs>>) => Object.values(tools).flatMap((set) => Object.entries(set));

describe("the agent registry", () => {
  it("has one descriptor per agent card, in the cards' order", () => {
    expect(AGENT_DESCRIPTORS.map((d) => d.card.name)).toEqual(AGENT_CARDS.map((c) => c.name));
    for (const card of AGENT_CARDS) expect(agentDescriptor(card.name)?.card).toEqual(card);
    expect(agentDescriptor("user")).toBeUndefined();
  });

  it("holds complete descriptors: tools, input and output schemas, how to make it and what its parent is told", () => {
    for (const d of AGENT_DESCRIPTORS) {
      expect(Object.keys(d.tools).length, d.card.name).toBeGreaterThan(0);
      for (const set of Object.values(d.tools)) expect(Object.keys(set).length, d.card.name).toBeGreaterThan(0);
      for (const [name, spec] of toolsOf(d.tools)) {
        expect(spec.description.trim(), `${d.card.name}.${name}`).not.toBe("");
        expect(toJsonSchema(spec.schema).type, `${d.card.name}.${name}`).toBe("object");
      }
      expect(typeof d.inputs.safeParse).toBe("function");
      expect(typeof d.outputs.safeParse).toBe("function");
      expect(typeof d.make).toBe("function");
      expect(typeof d.describeOutputs).toBe("function");
    }
    // The root agent is made from its run alone.
    expect(agentDescriptor(ROOT_AGENT)!.inputs.safeParse({}).success).toBe(true);
  });

  it("gives each tool name to one agent only", () => {
    const owner = new Map<string, string>();
    for (const d of AGENT_DESCRIPTORS) {
      for (const [name] of toolsOf(d.tools)) {
        expect(owner.get(name) ?? d.card.name, `${name} is offered by two agents`).toBe(d.card.name);
        owner.set(name, d.card.name);
      }
    }
  });

  it("drafts every tool of an agent whose drafts show fields, into a field of its schema that the text protocol fills", () => {
    const viewFields = Object.keys(DraftViewSchema.shape);
    for (const d of AGENT_DESCRIPTORS) {
      for (const [name, spec] of toolsOf(d.tools)) {
        const where = `${d.card.name}.${name}`;
        // The browser's draft shows only its thinking: its tools are not read while drafting.
        if (d.card.shows === "pages") {
          expect(spec.draft, where).toBeUndefined();
          continue;
        }
        expect(spec.draft, `${where} says no draft field`).not.toBeUndefined();
        const json = toJsonSchema(spec.schema) as Schema;
        // The same field as the text protocol reads the tag's plain text into (or none, when that is not a draft field).
        const rule = tagTextField(json);
        expect(spec.draft, where).toBe(rule !== undefined && viewFields.includes(rule) ? rule : null);
        if (spec.draft) expect(json.properties?.[spec.draft]?.type, where).toBe("string");
      }
    }
  });

  it("checks what one agent hands another", () => {
    const coder = agentDescriptor("coder")!.inputs;
    expect(coder.safeParse({ mode: "plan", task: "Count the coins.", uploads: ["f1"] }).success).toBe(true);
    expect(coder.safeParse({ mode: "edit", feedback: "As JSON.", code: "def f(p): pass", test: "print(f('a.png'))" }).success).toBe(true);
    expect(coder.safeParse({ mode: "edit", feedback: "As JSON." }).success).toBe(false);
    expect(agentDescriptor("planner")!.inputs.safeParse({ uploads: [] }).success).toBe(false);
    expect(agentDescriptor("browser")!.inputs.safeParse({ task: "Find the photo.", url: "" }).success).toBe(false);
  });
});

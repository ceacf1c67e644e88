import { describe, expect, it } from "vitest";
import { items as i, transcript } from "@/tests/helpers/chat-items";
import { chatMarkdown, fenced, pictureUrls } from "./chat-markdown";

describe("chatMarkdown", () => {
  const t = transcript();
  const messages = [
    t.msg(i.user("How many coins?", ["/api/files/up1"]), { runId: "r1" }),
    t.msg(i.cell("planner", "Threshold first.", "print(24)"), { runId: "r1" }),
    t.msg(i.printed("24", ["/api/files/g1", "/api/files/gone"]), { runId: "r1" }),
    t.msg(i.reply("There are **24** coins."), { runId: "r1" }),
    t.msg(i.user("And the big ones?"), { runId: "r2" }),
    t.msg(i.cell("planner", "", "big()"), { runId: "r2" }),
    t.msg({ type: "question", prompt: "Which size counts as big?", options: ["> 40 px", "> 60 px"], payload: null }, { runId: "r2" }),
    t.msg(i.answer("> 40 px"), { runId: "r2" }),
  ];
  const pictures = new Map([
    ["/api/files/up1", { path: "images/01-coins.png", alt: "coins.png" }],
    ["/api/files/g1", { path: "images/02-image 1.png", alt: "Planner · turn 1, picture 1" }],
  ]);
  const md = chatMarkdown({ title: "How many coins?", exportedAt: "2026-11-27T10:00:00Z", messages, pictures });

  it("lists every picture once, in order", () => {
    expect(pictureUrls(messages)).toEqual(["/api/files/up1", "/api/files/g1", "/api/files/gone"]);
  });

  it("reads as the chat: the questions, the answers, each step numbered as the chat does", () => {
    expect(md.startsWith("# How many coins?\n\n*Exported from Argus on 2026-11-27.*\n\n## You\n\nHow many coins?\n\n![coins.png](<images/01-coins.png>)")).toBe(true);
    expect(md).toContain("### Planner · turn 1\n\n> Threshold first.\n\n```python\nprint(24)\n```");
    expect(md).toContain("```text\n----- stdout -----\n24\n```\n\n![Planner · turn 1, picture 1](<images/02-image 1.png>)\n\n*(a picture that is no longer stored)*");
    expect(md).toContain("## Argus\n\nThere are **24** coins.");
    // The second question's run counts its turns from 1 again, as the chat does.
    expect(md).toContain("## You\n\nAnd the big ones?\n\n### Planner · turn 1\n\n```python\nbig()\n```");
    expect(md).toContain("**Argus asked:** Which size counts as big?\n\n- > 40 px\n- > 60 px\n\n**Your answer:** > 40 px");
  });

  it("fences code so backticks inside cannot close the block", () => {
    expect(fenced("a ``` b", "python")).toBe("````python\na ``` b\n````");
    expect(fenced("plain\n\n")).toBe("```\nplain\n```");
  });
});

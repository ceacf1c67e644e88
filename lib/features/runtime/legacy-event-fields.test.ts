/**
 * One case per migration OpenHands applies when it reads an old stream
 * (legacy-event-fields.ts names the source of each): the old dict goes in, the
 * event comes out, and toDict of it is today's form, with no legacy key left.
 */
import { describe, expect, it } from "vitest";
import { ArgusError } from "@/lib/foundation/errors";
import { fromDict, toDict } from "./serialization";

function errorOf(fn: () => unknown): ArgusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ArgusError) return e;
    throw e;
  }
  throw new Error("expected an ArgusError");
}

const RUN_ARGS = {
  command: "ls",
  is_input: false,
  thought: "",
  blocking: false,
  is_static: false,
  cwd: null,
  hidden: false,
  confirmation_state: "confirmed",
  security_risk: -1,
};

const READ_ARGS = {
  path: "/workspace/test.txt",
  start: 0,
  end: -1,
  thought: "Reading the file",
  security_risk: -1,
  impl_source: "oh_aci",
  view_range: null,
};

const RUN_METADATA = {
  exit_code: -1,
  pid: -1,
  username: null,
  hostname: null,
  working_dir: null,
  py_interpreter_path: null,
  prefix: "",
  suffix: "",
};

describe("old action args, read as OpenHands reads them", () => {
  it("args.timestamp leaves args and dates the event", () => {
    const e = fromDict({ action: "run", args: { command: "ls", timestamp: "2024-06-01T10:00:00" } });
    expect(e.timestamp).toBe("2024-06-01T10:00:00");
    expect(toDict(e)).toEqual({
      timestamp: "2024-06-01T10:00:00",
      message: "Running command: ls",
      action: "run",
      args: RUN_ARGS,
    });
    // The top-level timestamp wins; an empty one in args dates nothing.
    expect(fromDict({ timestamp: "2025-02-02", action: "run", args: { command: "ls", timestamp: "2020-01-01" } }).timestamp).toBe(
      "2025-02-02",
    );
    expect(fromDict({ action: "run", args: { command: "ls", timestamp: "" } }).timestamp).toBeUndefined();
  });

  it("is_confirmed is renamed confirmation_state (a null one is dropped)", () => {
    const e = fromDict({ action: "run", args: { command: "ls", is_confirmed: "rejected" } });
    expect(e).toMatchObject({ action: "run", args: { confirmation_state: "rejected" } });
    expect(toDict(e).args).toEqual({ ...RUN_ARGS, confirmation_state: "rejected" });
    const unset = fromDict({ action: "run_ipython", args: { code: "1", is_confirmed: null } });
    expect(toDict(unset).args).toEqual({
      code: "1",
      thought: "",
      include_extra: true,
      confirmation_state: "confirmed",
      security_risk: -1,
      kernel_init_code: "",
    });
  });

  it("images_urls is renamed image_urls", () => {
    const e = fromDict({ action: "message", source: "user", args: { content: "look", images_urls: ["/api/files/1"] } });
    expect(toDict(e)).toEqual({
      source: "user",
      message: "look",
      action: "message",
      args: { content: "look", file_urls: null, image_urls: ["/api/files/1"], wait_for_response: false, security_risk: -1 },
    });
  });

  it("a security_risk that is not a risk level is dropped, not fatal", () => {
    for (const bad of ["HIGH", 7, 1.5, null]) {
      const e = fromDict({ action: "run", args: { command: "ls", security_risk: bad } });
      expect(toDict(e).args).toEqual(RUN_ARGS);
    }
    expect(toDict(fromDict({ action: "run", args: { command: "ls", security_risk: 2 } })).args).toEqual({ ...RUN_ARGS, security_risk: 2 });
  });

  it("keep_prompt is dropped", () => {
    const e = fromDict({ action: "run", args: { command: "ls", blocking: false, keep_prompt: false } });
    expect(toDict(e).args).toEqual(RUN_ARGS);
  });

  it("task_completed is dropped", () => {
    const e = fromDict({ action: "finish", args: { outputs: {}, thought: "", final_thought: "Done", task_completed: "true" } });
    expect(toDict(e)).toEqual({ message: "Done", action: "finish", args: { final_thought: "Done", outputs: {}, thought: "" } });
  });

  it("translated_ipython_code is read back into the args, and a view loses its command", () => {
    const e = fromDict({
      action: "read",
      args: {
        path: "/workspace/old.txt",
        start: 0,
        end: -1,
        thought: "Reading the file",
        impl_source: "oh_aci",
        translated_ipython_code:
          "print(file_editor(**{'command': 'view', 'path': '/workspace/test.txt', 'view_range': (1, 20)}))",
      },
    });
    expect(e).toMatchObject({ action: "read", args: { path: "/workspace/test.txt", view_range: [1, 20] } });
    expect(toDict(e)).toEqual({
      message: "Reading file: /workspace/test.txt",
      action: "read",
      args: { ...READ_ARGS, view_range: [1, 20] },
    });
  });

  it("translated_ipython_code that is null, not a file-editor call, or not readable is just dropped", () => {
    const base = { path: "/workspace/test.txt", thought: "Reading the file", impl_source: "oh_aci" };
    for (const code of [null, "print(open('x').read())", "print(file_editor(**{'path': open('x')}))", "print(file_editor(**[1]))"]) {
      const e = fromDict({ action: "read", args: { ...base, command: "view", translated_ipython_code: code } });
      expect(toDict(e).args).toEqual(READ_ARGS);
    }
  });
});

describe("old observation extras, read as OpenHands reads them", () => {
  it("exit_code moves into metadata", () => {
    const e = fromDict({ observation: "run", content: "foo.txt", extras: { command: "ls -l", hidden: false, exit_code: 0 } });
    expect(toDict(e)).toEqual({
      message: "Command `ls -l` exited with code 0.",
      observation: "run",
      content: "foo.txt",
      extras: { command: "ls -l", metadata: { ...RUN_METADATA, exit_code: 0 }, hidden: false },
      success: true,
    });
    // Into an existing metadata object, keeping what it had.
    const merged = fromDict({ observation: "run", extras: { command: "ls", exit_code: 2, metadata: { pid: 7 } } });
    expect(toDict(merged).extras).toMatchObject({ metadata: { exit_code: 2, pid: 7 } });
  });

  it("command_id moves into metadata as pid", () => {
    const e = fromDict({
      id: 42,
      source: "agent",
      timestamp: "2021-08-01T12:00:00",
      observation: "run",
      message: "Command `ls -l` executed with exit code 0.",
      content: "foo.txt",
      extras: { command: "ls -l", hidden: false, exit_code: 0, command_id: 3 },
      success: true,
    });
    expect(toDict(e)).toEqual({
      id: 42,
      timestamp: "2021-08-01T12:00:00",
      source: "agent",
      message: "Command `ls -l` exited with code 0.",
      observation: "run",
      content: "foo.txt",
      extras: { command: "ls -l", metadata: { ...RUN_METADATA, exit_code: 0, pid: 3 }, hidden: false },
      success: true,
    });
  });

  it("formatted_output_and_error is dropped", () => {
    const e = fromDict({
      observation: "read",
      content: "x",
      extras: { path: "/workspace/a.py", formatted_output_and_error: "Here's the result of running `cat -n`" },
    });
    expect(toDict(e)).toEqual({
      message: "Read /workspace/a.py.",
      observation: "read",
      content: "x",
      extras: { path: "/workspace/a.py", impl_source: "default" },
    });
  });
});

describe("what OpenHands does not migrate is still refused, by name", () => {
  it("a view command on a read without translated_ipython_code", () => {
    const e = errorOf(() => fromDict({ action: "read", args: { path: "a", command: "view" } }));
    expect(e.code).toBe("bad_request:event");
    expect(e.field).toBe("args.command");
    expect(e.message).toBe("Invalid read action: unknown key args.command.");
  });

  it("file-editor arguments a read does not have", () => {
    const e = errorOf(() =>
      fromDict({
        action: "read",
        args: { path: "a", translated_ipython_code: "print(file_editor(**{'command': 'create', 'path': 'a', 'file_text': 'x'}))" },
      }),
    );
    expect(e.message).toBe("Invalid read action: unknown keys args.command, args.file_text.");
  });

  it("a __proto__ smuggled through translated_ipython_code", () => {
    const e = errorOf(() =>
      fromDict({ action: "read", args: { path: "a", translated_ipython_code: "print(file_editor(**{'__proto__': {'x': 1}}))" } }),
    );
    expect(e.field).toBe("args.__proto__");
  });

  it("a translated_ipython_code that is neither a string nor null", () => {
    const e = errorOf(() => fromDict({ action: "read", args: { path: "a", translated_ipython_code: 5 } }));
    expect(e.field).toBe("args.translated_ipython_code");
    expect(e.message).toMatch(/must be a string or null/);
  });

  it("blocking where only run has it, and a legacy key on a kind without that field", () => {
    // blocking is a current run arg, not a deprecated one: OpenHands' timeout path only re-sets it.
    expect(errorOf(() => fromDict({ action: "run_ipython", args: { code: "1", blocking: true } })).field).toBe("args.blocking");
    expect(errorOf(() => fromDict({ action: "run", args: { command: "ls", images_urls: [] } })).field).toBe("args.image_urls");
  });

  it("an unknown key beside migrated ones, and a thought that is not a string", () => {
    const e = errorOf(() => fromDict({ action: "run", args: { command: "ls", keep_prompt: true, colour: "red" } }));
    expect(e.message).toBe("Invalid run action: unknown key args.colour.");
    expect(errorOf(() => fromDict({ action: "run", args: { command: "ls", thought: { text: "hm" } } })).field).toBe("args.thought");
  });

  it("never changes its input", () => {
    const input = {
      action: "read",
      args: { path: "a", timestamp: "t", keep_prompt: true, translated_ipython_code: "print(file_editor(**{'command': 'view', 'path': 'b'}))" },
    };
    const copy = structuredClone(input);
    fromDict(input);
    expect(input).toEqual(copy);
  });
});

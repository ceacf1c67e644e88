import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { ArgusError } from "@/lib/foundation/errors";
import { tempDir } from "@/tests/helpers/temp-dir";
import { spoolForm } from "./multipart-spool";

const URL = "http://argus.test/api/form";
const LIMITS = { cap: 64 * 1024, tooLarge: "The test form is larger than 64 KB.", field: "files", maxParts: 4 };
const scratch = tempDir();
afterAll(() => scratch.cleanup());
let n = 0;
const freshDir = () => {
  const dir = `${scratch.dir}/${n++}`;
  mkdirSync(dir);
  return dir;
};

function formRequest(fill: (form: FormData) => void): Request {
  const form = new FormData();
  fill(form);
  return new Request(URL, { method: "POST", body: form });
}

async function refusal(promise: Promise<unknown>): Promise<ArgusError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ArgusError);
  return error as ArgusError;
}

describe("spoolForm", () => {
  it("refuses a body cut short inside a file as unreadable, and never waits on the half-written file", async () => {
    const boundary = "b0undary";
    const body = `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="a.png"\r\n\r\nx\r\n`;
    const req = new Request(URL, { method: "POST", body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } });
    const error = await refusal(spoolForm(req, LIMITS, freshDir()));
    expect(error.code).toBe("bad_request:upload");
  });

  it("writes each file part to its own file and keeps the fields, showing each field as it arrives", async () => {
    const dir = freshDir();
    const seen: string[] = [];
    const form = await spoolForm(
      formRequest((f) => {
        f.set("functionName", "count");
        f.append("files", new Blob(["first file"]), "a.png");
        f.append("zip", new Blob([new Uint8Array(3000)]), "b.zip");
      }),
      LIMITS,
      dir,
      (name, value) => void seen.push(`${name}=${value}`),
    );
    expect(seen).toEqual(["functionName=count"]);
    expect(form.fields).toEqual([{ name: "functionName", value: "count" }]);
    expect(form.files.map(({ field, filename, size }) => ({ field, filename, size }))).toEqual([
      { field: "files", filename: "a.png", size: 10 },
      { field: "zip", filename: "b.zip", size: 3000 },
    ]);
    expect(readFileSync(form.files[0]!.file, "utf8")).toBe("first file");
    expect(readdirSync(dir)).toHaveLength(2);
  });

  it("refuses with the field check's own error (the route's 404 for an unknown function)", async () => {
    const error = await refusal(
      spoolForm(
        formRequest((f) => {
          f.set("functionName", "missing");
          f.append("files", new Blob([new Uint8Array(1000)]), "a.png");
        }),
        LIMITS,
        freshDir(),
        (name) => {
          if (name === "functionName") throw new ArgusError("not_found:api", "no such function", { field: "functionName" });
        },
      ),
    );
    expect(error).toMatchObject({ code: "not_found:api", field: "functionName" });
  });

  it("refuses a body past the cap, more parts than allowed, and a body that is not a form", async () => {
    const big = await refusal(spoolForm(formRequest((f) => f.append("files", new Blob([new Uint8Array(70 * 1024)]), "big.png")), LIMITS, freshDir()));
    expect(big).toMatchObject({ code: "payload_too_large:api", message: LIMITS.tooLarge });
    const many = await refusal(spoolForm(formRequest((f) => { for (let i = 0; i < 6; i++) f.append("files", new Blob(["x"]), `${i}.png`); }), LIMITS, freshDir()));
    expect(many).toMatchObject({ code: "payload_too_large:upload", message: "The form has more than 4 parts." });
    const bad = await refusal(spoolForm(new Request(URL, { method: "POST", body: "nope", headers: { "content-type": "multipart/form-data" } }), LIMITS, freshDir()));
    expect(bad).toMatchObject({ code: "bad_request:upload", field: "files" });
  });
});

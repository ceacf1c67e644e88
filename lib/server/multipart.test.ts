import { describe, expect, it } from "vitest";
import { ArgusError } from "@/lib/errors";
import { filesIn, isMultipartForm, readCappedForm, requiredFile } from "./multipart";

const URL = "http://argus.test/api/form";
const LIMITS = { cap: 4096, tooLarge: "The test form is larger than 4 KB.", field: "file" };

/** A real multipart request, boundary and all, as a browser's fetch would send it. */
function formRequest(fill: (form: FormData) => void): Request {
  const form = new FormData();
  fill(form);
  return new Request(URL, { method: "POST", body: form });
}

/** A request whose body is `body` whatever its content-type claims. */
function rawRequest(body: BodyInit, contentType: string, headers: Record<string, string> = {}): Request {
  return new Request(URL, { method: "POST", body, headers: { "content-type": contentType, ...headers }, duplex: "half" } as RequestInit);
}

async function refusal(promise: Promise<unknown>): Promise<ArgusError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ArgusError);
  return error as ArgusError;
}

describe("isMultipartForm", () => {
  it("reads the media type case-insensitively and nothing else as a form", () => {
    expect(isMultipartForm(rawRequest("", "Multipart/Form-Data; boundary=x"))).toBe(true);
    expect(isMultipartForm(rawRequest("", "multipart/mixed; boundary=x"))).toBe(false);
    expect(isMultipartForm(rawRequest("{}", "application/json"))).toBe(false);
    expect(isMultipartForm(new Request(URL, { method: "POST" }))).toBe(false);
  });
});

describe("readCappedForm", () => {
  it("parses a form under the cap, its files with their names", async () => {
    const req = formRequest((f) => {
      f.set("functionName", "count_coins");
      f.set("file", new File([new Uint8Array([1, 2, 3])], "coins.png", { type: "image/png" }));
    });
    const form = await readCappedForm(req, LIMITS);
    expect(form.get("functionName")).toBe("count_coins");
    expect(await requiredFile(form, "file", "image")).toEqual({ filename: "coins.png", bytes: new Uint8Array([1, 2, 3]) });
  });

  it("refuses a body that claims to be multipart but is not, naming the given field", async () => {
    const error = await refusal(readCappedForm(rawRequest("just some text", "multipart/form-data; boundary=nowhere"), { ...LIMITS, field: "files" }));
    expect(error).toMatchObject({ code: "bad_request:upload", status: 400, field: "files", message: "The multipart body could not be read." });
  });

  it("refuses a multipart body without its boundary", async () => {
    const sent = formRequest((f) => f.set("file", new File(["x"], "x.png")));
    const bytes = new Uint8Array(await sent.arrayBuffer());
    const error = await refusal(readCappedForm(rawRequest(bytes, "multipart/form-data"), LIMITS));
    expect(error).toMatchObject({ code: "bad_request:upload", field: "file", message: "The multipart body could not be read." });
  });

  it("answers 413 with the given message for a body past the cap, streamed or declared", async () => {
    const big = () => formRequest((f) => f.set("file", new File([new Uint8Array(LIMITS.cap + 1)], "big.png")));
    const streamed = await refusal(readCappedForm(big(), LIMITS));
    expect(streamed).toMatchObject({ code: "payload_too_large:api", status: 413, message: LIMITS.tooLarge });

    const declared = rawRequest("", "multipart/form-data; boundary=x", { "content-length": String(LIMITS.cap + 1) });
    expect(await refusal(readCappedForm(declared, LIMITS))).toMatchObject({ code: "payload_too_large:api", message: LIMITS.tooLarge });
  });
});

describe("requiredFile", () => {
  it("refuses a form whose field is missing or holds text, in the words given", async () => {
    for (const fill of [(f: FormData) => f.set("other", "x"), (f: FormData) => f.set("file", "not a file")]) {
      const form = await readCappedForm(formRequest(fill), LIMITS);
      const error = await refusal(requiredFile(form, "file", "image"));
      expect(error).toMatchObject({ code: "bad_request:upload", status: 400, field: "file", message: "The form has no image in a field named 'file'." });
    }
  });
});

describe("filesIn", () => {
  it("gives every file of the field in order, and none when the field is absent", async () => {
    const form = await readCappedForm(
      formRequest((f) => {
        f.append("files", new File(["a"], "a.png"));
        f.append("files", new File(["bb"], "b.png"));
      }),
      LIMITS,
    );
    const files = await filesIn(form, "files");
    expect(files.map((f) => [f.filename, f.bytes.byteLength])).toEqual([
      ["a.png", 1],
      ["b.png", 2],
    ]);
    expect(await filesIn(form, "zip")).toEqual([]);
  });

  it("refuses text among the files, naming the field", async () => {
    const form = await readCappedForm(
      formRequest((f) => {
        f.append("zip", new File(["a"], "a.zip"));
        f.append("zip", "not a file");
      }),
      LIMITS,
    );
    const error = await refusal(filesIn(form, "zip"));
    expect(error).toMatchObject({ code: "bad_request:upload", field: "zip", message: "The field 'zip' must hold files." });
  });
});

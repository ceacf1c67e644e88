import { bridgeRequestId, transferAnswerOf } from "./bridge";
import { KernelTransferError, type TransferCall } from "./kernel-files";

type TransferAnswer = { result?: Record<string, unknown>; error?: string };

/**
 * File requests the server makes in the middle of a cell's bridge call (transport `kernel`): the
 * kernel is blocked in input() then, so the only way to its files is that same stdin exchange.
 * The server answers the call's input request with `{id, transfer}`; the kernel answers with a new
 * input request carrying `transfer_answer`, which is the request the next reply goes to. Every
 * input request is answered exactly once, the last one with the call's result.
 */
export class BridgeFileRequests {
  private readonly waiting = new Map<string, (answer: TransferAnswer, header: unknown) => void>();

  constructor(
    /** Sends an input reply to the input request with this header. */
    private readonly reply: (value: string, header: unknown) => void,
    /** Whether the cell can still take replies (not ended, kernel not lost). */
    private readonly open: () => boolean,
    /** Aborted when the cell ends. */
    private readonly signal: AbortSignal,
  ) {}

  /** Routes the kernel's answer to a file request; false when `prompt` is a new bridge call. */
  route(prompt: string, header: unknown): boolean {
    const answer = transferAnswerOf(prompt);
    if (!answer) return false;
    this.waiting.get(answer.id)?.(answer.answer, header);
    return true;
  }

  /**
   * One bridge call's exchange: `transfer` asks the kernel for a file step, and `replyTo` is the
   * input request the call's result must answer (it moves with each step).
   */
  forCall(prompt: string, header: unknown): { transfer: TransferCall; replyTo: () => unknown } {
    let replyTo = header;
    const requestId = bridgeRequestId(prompt);
    const ended = () => new KernelTransferError("The cell ended before its file could be read.");
    const transfer: TransferCall = (op, args) =>
      new Promise((resolve, reject) => {
        if (requestId === null || !this.open() || this.signal.aborted) return reject(ended());
        const onAbort = () => {
          this.waiting.delete(requestId);
          reject(ended());
        };
        this.signal.addEventListener("abort", onAbort, { once: true });
        this.waiting.set(requestId, (answer, next) => {
          this.waiting.delete(requestId);
          this.signal.removeEventListener("abort", onAbort);
          replyTo = next;
          if (typeof answer.error === "string") reject(new KernelTransferError(`The kernel refused the file transfer: ${answer.error}`));
          else if (answer.result && typeof answer.result === "object") resolve(answer.result);
          else reject(new KernelTransferError("The kernel's answer to a file transfer had no result."));
        });
        this.reply(JSON.stringify({ id: requestId, transfer: { op, args } }), replyTo);
      });
    return { transfer, replyTo: () => replyTo };
  }
}

// Moved to lib/common/keyed-mutex.ts; this re-export goes once lib/kernels and lib/scale import it from there.
export { KeyedMutex } from "@/lib/common/keyed-mutex";

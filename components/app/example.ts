/** The sample an empty chat offers: scikit-image's coins photo, shipped in public/examples/. */
export const EXAMPLE = {
  url: "/examples/coins.png",
  name: "coins.png",
  question: "How many coins are in this image?",
} as const;

/** Fetches the sample picture as a File, ready to upload like one the person picked. */
export async function loadExampleImage(): Promise<File> {
  const res = await fetch(EXAMPLE.url);
  if (!res.ok) throw new Error(`The example picture could not be loaded (${res.status}).`);
  return new File([await res.blob()], EXAMPLE.name, { type: "image/png" });
}

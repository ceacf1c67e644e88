import { HealthList } from "@/components/health-list";
import { ModelBanner } from "@/components/model-banner";
import { getArgus } from "@/lib/server/context";

export const dynamic = "force-dynamic";

export default async function Home() {
  const health = await getArgus().health();
  return (
    <main className="mx-auto flex max-w-2xl flex-col gap-6 p-8">
      <h1 className="text-3xl font-semibold tracking-tight">Argus</h1>
      <p className="text-zinc-600 dark:text-zinc-400">
        Upload images or a short video and ask a vision question. The chat arrives with the UI issue; the
        session, upload and streaming API is live now (see the README).
      </p>
      <ModelBanner configured={health.model === "configured"} />
      <HealthList health={health} />
    </main>
  );
}

import { ArrowLeft } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { HealthList } from "@/components/health-list";
import { ModelCheckPanel } from "@/components/model-check-panel";
import { ModelHealthList } from "@/components/model-health-list";
import { ModelBanner } from "@/components/model-banner";
import { VisionHealthList } from "@/components/vision-health-list";
import { argusArea } from "@/lib/server/areas";

export const dynamic = "force-dynamic";

/** Diagnostics: what is up, and how kernels are contained. */
export default async function Status() {
  const health = await argusArea("status").health();
  return (
    <main className="mx-auto flex max-w-2xl flex-col gap-6 p-8">
      <h1 className="text-3xl font-semibold tracking-tight">Argus status</h1>
      <ModelBanner configured={health.model === "configured"} />
      <Card padding="md">
        <HealthList health={health} />
      </Card>
      <h2 className="text-xl font-semibold tracking-tight">Models</h2>
      <Card padding="md" className="flex flex-col gap-4">
        <ModelHealthList models={health.models} notes={health.modelNotes} />
        <ModelCheckPanel />
      </Card>
      <h2 className="text-xl font-semibold tracking-tight">Vision tools</h2>
      <Card padding="md">
        <VisionHealthList vision={health.vision} />
      </Card>
      <Button asChild variant="link" className="self-start">
        <a href="/">
          <ArrowLeft aria-hidden="true" />
          Back to the chat
        </a>
      </Button>
    </main>
  );
}

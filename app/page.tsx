import { ChatApp } from "@/components/app/chat-app";
import { modelStatus } from "@/lib/foundation/config";
import { argusArea } from "@/lib/server/areas";

export const dynamic = "force-dynamic";

export default function Home() {
  const { config } = argusArea("status");
  return <ChatApp modelConfigured={modelStatus(config) === "configured"} maxUploadBytes={config.limits.maxUploadBytes} />;
}

import { ChatApp } from "@/components/app/chat-app";
import { modelStatus } from "@/lib/config";
import { getArgus } from "@/lib/server/context";

export const dynamic = "force-dynamic";

export default function Home() {
  const { config } = getArgus();
  return <ChatApp modelConfigured={modelStatus(config) === "configured"} maxUploadBytes={config.limits.maxUploadBytes} />;
}

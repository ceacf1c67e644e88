import { Eye } from "lucide-react";
import { cn } from "@/components/ui/cn";

/** The app's name with its mark. */
export function Brand({ className }: { className?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-2 text-base font-semibold tracking-tight", className)}>
      <span aria-hidden="true" className="inline-flex size-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
        <Eye className="size-4" />
      </span>
      Argus
    </span>
  );
}

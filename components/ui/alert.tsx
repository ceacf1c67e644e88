import { cva, type VariantProps } from "class-variance-authority";
import { CircleAlert, Info, TriangleAlert } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "./cn";

const alertVariants = cva("flex items-start gap-2 rounded-md border px-3 py-2 text-sm [&>svg]:mt-0.5 [&>svg]:size-4 [&>svg]:shrink-0", {
  variants: {
    tone: {
      danger: "border-danger-border bg-danger-soft text-danger-soft-foreground",
      warning: "border-warning-border bg-warning-soft text-warning-soft-foreground",
      info: "border-primary-border bg-primary-soft text-primary-soft-foreground",
    },
  },
  defaultVariants: { tone: "danger" },
});

const ICONS = { danger: CircleAlert, warning: TriangleAlert, info: Info } as const;

export type AlertProps = ComponentProps<"div"> & VariantProps<typeof alertVariants>;

/** A notice in a coloured box, with an icon matching its tone. role="alert" unless told otherwise. */
export function Alert({ className, tone, role = "alert", children, ...props }: AlertProps) {
  const Icon = ICONS[tone ?? "danger"];
  return (
    <div role={role} {...props} className={cn(alertVariants({ tone }), className)}>
      <Icon aria-hidden="true" />
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}

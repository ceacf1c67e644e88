import { Slot } from "@radix-ui/react-slot";
import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "./cn";

export const buttonVariants = cva(
  "focus-ring inline-flex shrink-0 cursor-pointer items-center justify-center gap-1.5 rounded-md font-medium whitespace-nowrap transition-colors disabled:cursor-not-allowed disabled:opacity-50 [&_svg]:pointer-events-none [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        default: "bg-primary text-primary-foreground hover:bg-primary-hover disabled:hover:bg-primary",
        secondary: "bg-secondary text-secondary-foreground hover:bg-secondary-hover",
        outline: "border border-input bg-card text-foreground hover:bg-accent disabled:hover:bg-card",
        ghost: "text-foreground hover:bg-accent disabled:hover:bg-transparent",
        destructive: "bg-destructive text-destructive-foreground hover:bg-destructive-hover disabled:hover:bg-destructive",
        link: "h-auto rounded-sm px-0 text-link underline-offset-2 hover:underline",
      },
      size: {
        xs: "h-control-xs px-2 text-xs [&_svg]:size-3.5",
        sm: "h-control-sm px-2.5 text-sm [&_svg]:size-4",
        md: "h-control px-3.5 text-sm [&_svg]:size-4",
        lg: "h-10 px-5 text-base [&_svg]:size-5",
        icon: "size-control [&_svg]:size-4",
        "icon-sm": "size-control-sm [&_svg]:size-4",
        "icon-xs": "size-control-xs [&_svg]:size-3.5",
      },
    },
    compoundVariants: [{ variant: "link", className: "h-auto px-0" }],
    defaultVariants: { variant: "default", size: "md" },
  },
);

export type ButtonProps = ComponentProps<"button"> &
  VariantProps<typeof buttonVariants> & {
    /** Style the only child (a link, say) as a button instead of rendering a <button>. */
    asChild?: boolean;
  };

/** The one button of the app: variants for emphasis, sizes for density. Defaults to type="button". */
export function Button({ className, variant, size, asChild = false, type, ...props }: ButtonProps) {
  const classes = cn(buttonVariants({ variant, size }), className);
  if (asChild) return <Slot {...props} className={classes} />;
  // type comes first and class last, so the markup reads like a hand-written <button>.
  return <button type={type ?? "button"} {...props} className={classes} />;
}

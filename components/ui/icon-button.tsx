"use client";

import { Button, type ButtonProps } from "./button";
import { Tooltip } from "./tooltip";

export type IconButtonProps = Omit<ButtonProps, "aria-label" | "asChild"> & {
  /** The accessible name, also shown as the tooltip. */
  label: string;
  /** Tooltip text when it should differ from the name; false for none. */
  tooltip?: string | false;
};

/** A button that shows only an icon: named for screen readers, explained by a tooltip. */
export function IconButton({ label, tooltip, variant = "ghost", size = "icon-sm", children, ...props }: IconButtonProps) {
  const button = (
    <Button aria-label={label} variant={variant} size={size} {...props}>
      {children}
    </Button>
  );
  if (tooltip === false) return button;
  return <Tooltip content={tooltip ?? label}>{button}</Tooltip>;
}

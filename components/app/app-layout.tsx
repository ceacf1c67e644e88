"use client";

import { PanelLeft, PanelRight, X } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Drawer, DrawerClose, DrawerContent, DrawerHeader, DrawerTitle, DrawerTrigger } from "@/components/ui/drawer";
import { IconButton } from "@/components/ui/icon-button";
import { useMediaQuery, WIDE_QUERY } from "@/lib/client/use-media-query";
import { Brand } from "./brand";
import { SkipLinks } from "./skip-links";

export type Panel = "none" | "sessions" | "preview";

interface AppLayoutProps {
  /** Shown above everything (the no-model banner). */
  banner?: ReactNode;
  sidebar: ReactNode;
  preview: ReactNode;
  /** Which drawer is open at phone width. */
  panel: Panel;
  onPanelChange: (panel: Panel) => void;
  /** The chat itself. */
  children: ReactNode;
}

/**
 * Three columns on a wide screen: sessions, chat, preview. At phone width the
 * sessions and the preview become drawers opened from a top bar. Each side
 * pane exists once at a time, so its state and test ids are never doubled.
 * The server renders the wide layout; CSS hides its columns on a phone until
 * the page knows its width.
 */
export function AppLayout({ banner, sidebar, preview, panel, onPanelChange, children }: AppLayoutProps) {
  const wide = useMediaQuery(WIDE_QUERY, true);
  const drawer = (which: Exclude<Panel, "none">) => ({
    open: !wide && panel === which,
    onOpenChange: (open: boolean) => onPanelChange(open ? which : "none"),
  });

  return (
    <div className="flex h-dvh flex-col overflow-hidden">
      <SkipLinks />
      {banner}
      <header className="flex items-center gap-2 border-b bg-sidebar px-3 py-2 md:hidden">
        <Drawer {...drawer("sessions")}>
          <DrawerTrigger asChild>
            <Button variant="outline" size="sm">
              <PanelLeft aria-hidden="true" />
              Chats
            </Button>
          </DrawerTrigger>
          <DrawerContent side="left" className="bg-sidebar">
            <DrawerHeader>
              <DrawerTitle>Chats</DrawerTitle>
              <DrawerClose asChild>
                <IconButton label="Close chats" tooltip={false}>
                  <X aria-hidden="true" />
                </IconButton>
              </DrawerClose>
            </DrawerHeader>
            <div className="min-h-0 flex-1">{sidebar}</div>
          </DrawerContent>
        </Drawer>
        <Brand className="flex-1 justify-center" />
        <Drawer {...drawer("preview")}>
          <DrawerTrigger asChild>
            <Button variant="outline" size="sm" data-testid="open-preview">
              <PanelRight aria-hidden="true" />
              Preview
            </Button>
          </DrawerTrigger>
          <DrawerContent side="right">
            <DrawerHeader>
              <DrawerTitle>Preview</DrawerTitle>
              <DrawerClose asChild>
                <Button variant="outline" size="sm">
                  <X aria-hidden="true" />
                  Close preview
                </Button>
              </DrawerClose>
            </DrawerHeader>
            <div className="min-h-0 flex-1">{preview}</div>
          </DrawerContent>
        </Drawer>
      </header>
      <div className="flex min-h-0 flex-1">
        {wide && (
          <aside className="hidden w-sidebar shrink-0 flex-col border-r bg-sidebar md:flex">
            <div className="px-4 pt-4 pb-1">
              <Brand />
            </div>
            <div className="min-h-0 flex-1">{sidebar}</div>
          </aside>
        )}
        <main id="main" className="flex min-w-0 flex-1 flex-col" aria-label="Chat">
          {children}
        </main>
        {wide && (
          <aside aria-label="Preview" className="hidden w-[42%] max-w-2xl shrink-0 border-l md:block">
            {preview}
          </aside>
        )}
      </div>
    </div>
  );
}

/** What every profile panel receives from the page. */
export type PanelProps = {
  /** The user holds the MODIFY permission of the panel's data; otherwise it is read-only. */
  canEdit: boolean;
  /** Reports unsaved changes, so the page can ask before the user leaves. */
  onDirtyChange: (dirty: boolean) => void;
};

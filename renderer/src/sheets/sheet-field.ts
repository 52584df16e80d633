/** A column the user may edit: what it shows, what it is called in a row's spoken label, and whether it was changed. */
export interface SheetField<R> {
  key: string;
  title: string;
  /** How the cell is named to a screen reader: "Edit {name} of row 3". */
  name: string;
  width?: number;
  minWidth?: number;
  text: (row: R) => string;
  /** A cell edited before the check: marked with a star. */
  changed?: (row: R) => boolean;
}

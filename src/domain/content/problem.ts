/** One problem found in the content: the file, the field when there is one, what is wrong. */
export interface ContentProblem {
  file: string;
  field: string | null;
  message: string;
}

/** The endpoint a dialog or button acts on. */
export interface EndpointTarget {
  id: string;
  url: string;
}

// The demo organizations. Two of them, so that isolation between organizations is visible.
// Contact details are stored (as real data would be) and must never show up in a response.

export interface DemoMember {
  name: string;
  role: "founder" | "lead" | "member";
  department: string | null;
  isExternal?: boolean;
  active?: boolean;
  /** Local part of the e-mail and chat handle. */
  handle: string;
  /** A demo sign-in is created for this member under this e-mail local part. */
  signIn?: "founder" | "lead" | "member";
}

export interface DemoOrganization {
  slug: string;
  name: string;
  domain: string;
  members: DemoMember[];
  projects: string[];
  kpis: { name: string; unit: string; target: number; base: number }[];
}

export const DEMO_ORGANIZATIONS: DemoOrganization[] = [
  {
    slug: "acme",
    name: "Acme Robotics",
    domain: "acme.example",
    members: [
      { name: "Maya Chen", role: "founder", department: null, handle: "maya", signIn: "founder" },
      { name: "Dev Patel", role: "lead", department: "Engineering", handle: "dev", signIn: "lead" },
      { name: "Sofia Alvarez", role: "lead", department: "Product", handle: "sofia" },
      { name: "Liam O'Connor", role: "member", department: "Engineering", handle: "liam", signIn: "member" },
      { name: "Aisha Khan", role: "member", department: "Engineering", handle: "aisha" },
      { name: "Tomás Silva", role: "member", department: "Design", handle: "tomas" },
      { name: "Grace Kim", role: "member", department: "Operations", handle: "grace" },
      { name: "Noah Williams", role: "member", department: "Engineering", handle: "noah", active: false },
      { name: "Priya Raman", role: "member", department: "Engineering", handle: "priya", isExternal: true },
      { name: "Ben Okafor", role: "member", department: null, handle: "ben" },
    ],
    projects: [
      "gripper firmware 2.3",
      "fleet dashboard",
      "pick-rate model",
      "warehouse pilot with Northwind",
      "safety certification pack",
      "charging dock redesign",
    ],
    kpis: [
      { name: "Pick success rate", unit: "%", target: 98, base: 96.4 },
      { name: "Units shipped this week", unit: "units", target: 40, base: 31 },
      { name: "Open P1 bugs", unit: "bugs", target: 0, base: 3 },
    ],
  },
  {
    slug: "globex",
    name: "Globex",
    domain: "globex.example",
    members: [
      { name: "Hank Scorpio", role: "founder", department: null, handle: "hank", signIn: "founder" },
      { name: "Lena Fischer", role: "lead", department: "Engineering", handle: "lena", signIn: "lead" },
      { name: "Omar Haddad", role: "lead", department: "Sales", handle: "omar" },
      { name: "Julia Novak", role: "member", department: "Engineering", handle: "julia", signIn: "member" },
      { name: "Kenji Tanaka", role: "member", department: "Engineering", handle: "kenji" },
      { name: "Rosa Martinez", role: "member", department: "Support", handle: "rosa" },
      { name: "Ivan Petrov", role: "member", department: "Engineering", handle: "ivan", active: false },
      { name: "Chloe Dubois", role: "member", department: "Marketing", handle: "chloe", isExternal: true },
      { name: "Sam Lee", role: "member", department: null, handle: "sam" },
      { name: "Zara Ahmed", role: "member", department: "Sales", handle: "zara" },
    ],
    projects: [
      "billing migration",
      "SSO for enterprise",
      "onboarding emails",
      "Q4 pricing page",
      "support macros",
      "data export API",
    ],
    kpis: [
      { name: "MRR", unit: "USD", target: 250000, base: 231000 },
      { name: "Trial to paid", unit: "%", target: 12, base: 9.8 },
      { name: "First response time", unit: "hours", target: 4, base: 5.5 },
    ],
  },
];

export const DEMO_DAYS = 24;

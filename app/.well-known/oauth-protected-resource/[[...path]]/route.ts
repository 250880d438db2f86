export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/discovery/no-oauth";

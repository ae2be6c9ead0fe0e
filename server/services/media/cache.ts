/** A served file, ready to send. */
export interface ServedVariant {
  data: Buffer;
  contentType: string;
  etag: string;
}

/** A least-recently-used cache bounded by the bytes it holds. */
export class ByteCache {
  private readonly entries = new Map<string, ServedVariant>();
  bytes = 0;
  constructor(private readonly max: number) {}
  get(id: string): ServedVariant | undefined {
    const hit = this.entries.get(id);
    if (hit) {
      this.entries.delete(id);
      this.entries.set(id, hit);
    }
    return hit;
  }
  set(id: string, value: ServedVariant): void {
    if (value.data.length > this.max / 8 || this.entries.has(id)) return;
    this.entries.set(id, value);
    this.bytes += value.data.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.max) break;
      this.entries.delete(k);
      this.bytes -= v.data.length;
    }
  }
  dropKey(key: string): void {
    for (const [k, v] of this.entries) {
      if (!k.startsWith(`${key}-`)) continue;
      this.entries.delete(k);
      this.bytes -= v.data.length;
    }
  }
}

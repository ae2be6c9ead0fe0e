import { createRequire } from "node:module";
import type { Readable } from "node:stream";
import { Document, Font, Page, StyleSheet, Text, View, renderToStream } from "@react-pdf/renderer";
import type { InvoiceLayout } from "#domain/invoice.ts";

/**
 * The invoice, or a credit note (decision 073), as a PDF document (decision 038): the same text as the page
 * (domain/invoice.ts invoiceLayout, domain/credit-note.ts creditNoteLayout), laid out
 * by @react-pdf/renderer in this process, on A4, in Noto Sans embedded (decision 062): the PDF's built-in Helvetica
 * has no minus sign (a discount's line) and no letter outside Western Europe (a customer's name).
 */

const fontFile = createRequire(import.meta.url).resolve;

/**
 * The fonts, registered once when this module loads: Noto Sans (Latin, Greek, Cyrillic, and the signs an invoice
 * prints), then Arabic and Hebrew, which @react-pdf uses for the characters the first has no glyph for. Each is read
 * from disk on the first invoice and only the glyphs used are embedded.
 */
const FONTS = {
  "Noto Sans": {
    400: "@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf",
    700: "@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf",
  },
  "Noto Sans Arabic": {
    400: "@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf",
    700: "@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf",
  },
  "Noto Sans Hebrew": {
    400: "@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-400-normal.woff",
    700: "@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-700-normal.woff",
  },
} as const;
for (const [family, weights] of Object.entries(FONTS))
  Font.register({
    family,
    fonts: Object.entries(weights).map(([weight, file]) => ({ src: fontFile(file), fontWeight: Number(weight) })),
  });
const FAMILY = Object.keys(FONTS);
const BOLD = { fontFamily: FAMILY, fontWeight: 700 } as const;
const FOREST = "#1f3d36";
const INK = "#23262b";
const MIST = "#62666f";
const LINEN = "#e8dccb";
const CLAY = "#a9522c";

const styles = StyleSheet.create({
  page: { padding: 48, fontFamily: FAMILY, fontSize: 10, color: INK, lineHeight: 1.45 },
  header: { flexDirection: "row", justifyContent: "space-between", marginBottom: 28 },
  sellerName: { ...BOLD, fontSize: 14, color: FOREST, marginBottom: 4 },
  title: { ...BOLD, fontSize: 22, color: FOREST, textAlign: "right" },
  small: { fontSize: 9, color: MIST },
  label: { fontSize: 8, color: MIST, textTransform: "uppercase", letterSpacing: 0.6, marginBottom: 3 },
  columns: { flexDirection: "row", justifyContent: "space-between", marginBottom: 24 },
  // Long names and addresses wrap in their column rather than run under the other.
  grow: { flex: 1, paddingRight: 16 },
  facts: { width: 260 },
  factRow: { flexDirection: "row", justifyContent: "flex-end" },
  factLabel: { width: 110, color: MIST, textAlign: "right", marginRight: 10 },
  factValue: { width: 140, textAlign: "right" },
  table: { borderTopWidth: 1, borderTopColor: LINEN, marginTop: 8 },
  tableHead: { flexDirection: "row", paddingVertical: 6, borderBottomWidth: 1, borderBottomColor: LINEN },
  tableRow: { flexDirection: "row", paddingVertical: 10, borderBottomWidth: 1, borderBottomColor: LINEN },
  description: { flex: 1 },
  amount: { width: 110, textAlign: "right" },
  total: { flexDirection: "row", justifyContent: "flex-end", marginTop: 12 },
  totalLabel: { ...BOLD, marginRight: 16 },
  totalValue: { ...BOLD, fontSize: 12, color: FOREST, width: 110, textAlign: "right" },
  subtotal: { flexDirection: "row", justifyContent: "flex-end", marginTop: 6 },
  subtotalLabel: { color: MIST, marginRight: 16 },
  note: { marginTop: 12, ...BOLD },
  related: { marginTop: 12, color: MIST },
  notice: { marginTop: 16, color: CLAY, ...BOLD },
  footer: { position: "absolute", left: 48, right: 48, bottom: 36, fontSize: 8.5, color: MIST },
});

/** The seller and the title. */
function InvoiceHeader({ layout }: { layout: InvoiceLayout }) {
  return (
    <View style={styles.header}>
      <View style={styles.grow}>
        <Text style={styles.sellerName}>{layout.seller.name}</Text>
        {layout.seller.lines.map((line) => (
          <Text key={line} style={styles.small}>
            {line}
          </Text>
        ))}
      </View>
      <Text style={styles.title}>{layout.title}</Text>
    </View>
  );
}

/** Who is billed, beside the invoice's facts (number, dates…). */
function InvoiceParties({ layout }: { layout: InvoiceLayout }) {
  return (
    <View style={styles.columns}>
      <View style={styles.grow}>
        <Text style={styles.label}>Billed to</Text>
        {layout.billedTo.map((line, i) => (
          <Text key={`${i}-${line}`}>{line}</Text>
        ))}
      </View>
      <View style={styles.facts}>
        {layout.facts.map(([label, value]) => (
          <View key={label} style={styles.factRow}>
            <Text style={styles.factLabel}>{label}</Text>
            <Text style={styles.factValue}>{value}</Text>
          </View>
        ))}
      </View>
    </View>
  );
}

/** The table: the line and the discount, if any. */
function InvoiceLines({ layout }: { layout: InvoiceLayout }) {
  return (
    <View style={styles.table}>
      <View style={styles.tableHead}>
        <Text style={[styles.description, styles.label]}>Description</Text>
        <Text style={[styles.amount, styles.label]}>Amount</Text>
      </View>
      <View style={styles.tableRow}>
        <View style={styles.description}>
          <Text>{layout.line.description}</Text>
          <Text style={styles.small}>{layout.line.detail}</Text>
        </View>
        <Text style={styles.amount}>{layout.line.amount}</Text>
      </View>
      {layout.discount ? (
        <View style={styles.tableRow}>
          <Text style={styles.description}>{layout.discount.description}</Text>
          <Text style={styles.amount}>{layout.discount.amount}</Text>
        </View>
      ) : null}
    </View>
  );
}

function InvoiceDocument({ layout }: { layout: InvoiceLayout }) {
  const number = layout.facts[0]![1];
  return (
    <Document title={`${layout.title} ${number}`} author={layout.seller.name} creator={layout.seller.name}>
      <Page size="A4" style={styles.page}>
        <InvoiceHeader layout={layout} />
        <InvoiceParties layout={layout} />
        <InvoiceLines layout={layout} />
        {layout.vat.map(([label, value]) => (
          <View key={label} style={styles.subtotal}>
            <Text style={styles.subtotalLabel}>{label}</Text>
            <Text style={styles.amount}>{value}</Text>
          </View>
        ))}
        <View style={styles.total}>
          <Text style={styles.totalLabel}>{layout.total[0]}</Text>
          <Text style={styles.totalValue}>{layout.total[1]}</Text>
        </View>
        {layout.notes.map((note) => (
          <Text key={note} style={styles.note}>
            {note}
          </Text>
        ))}
        {layout.creditNotes.length ? (
          <View style={styles.related}>
            {layout.creditNotes.map((c) => (
              <Text key={c.number}>{c.text}</Text>
            ))}
          </View>
        ) : null}
        {layout.notice ? <Text style={styles.notice}>{layout.notice}</Text> : null}
        <View style={styles.footer} fixed>
          {layout.seller.legal.length ? <Text>{layout.seller.legal.join(" · ")}</Text> : null}
          <Text>{layout.footer}</Text>
        </View>
      </Page>
    </Document>
  );
}

/** An invoice's or a credit note's PDF from its layout, streamed as @react-pdf writes it. */
export function renderLayoutPdf(layout: InvoiceLayout): Promise<Readable> {
  return renderToStream(<InvoiceDocument layout={layout} />) as Promise<Readable>;
}

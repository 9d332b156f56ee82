//! A long page read in pages (SPEC §5 "Pages"): what one `extract {page: n}` holds. Pure, so it runs natively.
//!
//! The markdown is cut into chunks at block boundaries ([`chunks`]; a block too big for one chunk — a long
//! list, table, quote, paragraph or code block — is split into blocks of the same kind), each small enough that
//! it stays under the 30 KB cap once its links are written with their uids. The elements: page 1 lists what the
//! default read lists (the in-viewport ones first), and the pages after it the others in document order,
//! [`MAX_ELEMENTS`] a page ([`element_page`]). Page `n` holds chunk `n` and element page `n`; the page has as
//! many pages as the longer of the two needs.

use super::ax::MAX_ELEMENTS;
use super::markdown::{render, Block, Inline, MARKDOWN_MAX_BYTES};

/// The largest chunk of plain markdown, bytes: room left under the cap for the uid refs of a page's
/// [`MAX_ELEMENTS`] elements, which may write a link longer than its URL did (`[x](e1234)` for an in-page link).
pub const CHUNK_MAX_BYTES: usize = MARKDOWN_MAX_BYTES - MAX_ELEMENTS * 16;

/// `blocks` in chunks whose rendered markdown is at most `max` bytes (a single line or word longer than
/// `max` stays whole), in order, nothing left out.
pub fn chunks(blocks: &[Block], max: usize) -> Vec<Vec<Block>> {
    let mut out: Vec<Vec<Block>> = Vec::new();
    let mut chunk: Vec<Block> = Vec::new();
    let mut size = 0;
    for block in blocks {
        for part in split(block, max) {
            let len = rendered_len(&part);
            if len == 0 {
                continue;
            }
            if !chunk.is_empty() && size + 2 + len > max {
                out.push(std::mem::take(&mut chunk));
                size = 0;
            }
            size += if chunk.is_empty() { len } else { len + 2 };
            chunk.push(part);
        }
    }
    if !chunk.is_empty() {
        out.push(chunk);
    }
    out
}

fn rendered_len(block: &Block) -> usize {
    render(std::slice::from_ref(block)).len()
}

/// `block` when it renders within `max` bytes; else blocks of its kind that each do (as far as its items,
/// rows, lines or words allow).
fn split(block: &Block, max: usize) -> Vec<Block> {
    if rendered_len(block) <= max {
        return vec![block.clone()];
    }
    match block {
        Block::List {
            ordered,
            start,
            items,
        } => {
            // An item measured with the widest number of the list, so no part is underestimated.
            let widest = start.saturating_add(items.len() as u32);
            let one = |item: &Vec<Block>| Block::List {
                ordered: *ordered,
                start: widest,
                items: vec![item.clone()],
            };
            let mut first = 0u32;
            groups(items, max, |item| rendered_len(&one(item)) + 1)
                .into_iter()
                .map(|group| {
                    let part = Block::List {
                        ordered: *ordered,
                        start: start.saturating_add(first),
                        items: group.to_vec(),
                    };
                    first = first.saturating_add(group.len() as u32);
                    part
                })
                .collect()
        }
        Block::Table { rows } if rows.len() > 2 => {
            // Each part keeps the header row, so its columns stay named.
            let header = &rows[0];
            let alone = rendered_len(&Block::Table {
                rows: vec![header.clone()],
            });
            let row_len = |row: &Vec<Vec<Inline>>| {
                let two = Block::Table {
                    rows: vec![header.clone(), row.clone()],
                };
                rendered_len(&two).saturating_sub(alone)
            };
            groups(&rows[1..], max.saturating_sub(alone), row_len)
                .into_iter()
                .map(|group| {
                    let mut rows = vec![header.clone()];
                    rows.extend(group.iter().cloned());
                    Block::Table { rows }
                })
                .collect()
        }
        Block::Quote(inner) => chunks(inner, max.saturating_sub(max / 16))
            .into_iter()
            .map(Block::Quote)
            .collect(),
        Block::Paragraph(inlines) => {
            let words: Vec<Inline> = inlines.iter().flat_map(|i| words_of(i, max)).collect();
            let len = |i: &Inline| render(&[Block::Paragraph(vec![i.clone()])]).len() + 1;
            groups(&words, max, len)
                .into_iter()
                .map(|group| Block::Paragraph(group.to_vec()))
                .collect()
        }
        Block::Code { lang, text } => {
            let lines: Vec<&str> = text.lines().collect();
            groups(&lines, max.saturating_sub(16), |l| l.len() + 1)
                .into_iter()
                .map(|group| Block::Code {
                    lang: lang.clone(),
                    text: group.join("\n"),
                })
                .collect()
        }
        _ => vec![block.clone()],
    }
}

/// A text inline longer than `max` as several, cut between words; any other inline as it is.
fn words_of(inline: &Inline, max: usize) -> Vec<Inline> {
    let Inline::Text(text) = inline else {
        return vec![inline.clone()];
    };
    if text.len() <= max {
        return vec![inline.clone()];
    }
    let words: Vec<&str> = text.split_inclusive(char::is_whitespace).collect();
    groups(&words, max, |w| w.len())
        .into_iter()
        .map(|group| Inline::Text(group.concat()))
        .collect()
}

/// `items` in runs, in order, whose lengths (`len` each) add up to at most `max`; an item longer than
/// `max` is a run of its own.
fn groups<T>(items: &[T], max: usize, len: impl Fn(&T) -> usize) -> Vec<&[T]> {
    let mut out = Vec::new();
    let (mut start, mut size) = (0, 0);
    for (i, item) in items.iter().enumerate() {
        let n = len(item);
        if i > start && size + n > max {
            out.push(&items[start..i]);
            (start, size) = (i, 0);
        }
        size += n;
    }
    if start < items.len() {
        out.push(&items[start..]);
    }
    out
}

/// How many element pages a page of `total` elements has when page 1 lists `first` of them.
pub fn element_pages(total: usize, first: usize) -> usize {
    1 + total.saturating_sub(first).div_ceil(MAX_ELEMENTS)
}

/// The indices (document order) of the elements element page `n` (≥ 2) lists: those page 1 did not list
/// (`first[i]` false), [`MAX_ELEMENTS`] a page, in document order; none past the last page.
pub fn element_page(first: &[bool], n: usize) -> Vec<usize> {
    first
        .iter()
        .enumerate()
        .filter(|(_, listed)| !**listed)
        .map(|(i, _)| i)
        .skip(n.saturating_sub(2) * MAX_ELEMENTS)
        .take(MAX_ELEMENTS)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Vec<Inline> {
        vec![Inline::Text(s.to_owned())]
    }

    fn rendered(chunks: &[Vec<Block>]) -> Vec<String> {
        chunks.iter().map(|c| render(c)).collect()
    }

    #[test]
    fn blocks_that_fit_are_one_chunk_as_render_writes_them() {
        let blocks = vec![
            Block::Heading {
                level: 1,
                content: text("Title"),
            },
            Block::Paragraph(text("Body.")),
        ];
        let c = chunks(&blocks, 1000);
        assert_eq!(c, vec![blocks.clone()]);
        assert_eq!(render(&c[0]), render(&blocks));
    }

    #[test]
    fn a_long_list_is_split_by_items_and_keeps_its_numbers() {
        let items: Vec<Vec<Block>> = (1..=300)
            .map(|n| vec![Block::Paragraph(text(&format!("Item number {n}")))])
            .collect();
        let list = Block::List {
            ordered: true,
            start: 1,
            items,
        };
        let whole = render(std::slice::from_ref(&list));
        let c = rendered(&chunks(&[list], 1000));
        assert!(c.len() > 4, "{}", c.len());
        assert!(c.iter().all(|t| t.len() <= 1000));
        // Nothing lost, nothing repeated: the chunks' lines are the list's lines.
        assert_eq!(c.join("\n"), whole);
        assert!(c[1].starts_with(&format!("{}. Item number", c[0].lines().count() + 1)));
    }

    #[test]
    fn a_long_table_is_split_by_rows_and_each_part_keeps_the_header() {
        let row = |a: &str, b: &str| vec![text(a), text(b)];
        let mut rows = vec![row("Name", "Price")];
        rows.extend((0..200).map(|n| row(&format!("Product {n}"), &format!("{n}.00"))));
        let c = rendered(&chunks(&[Block::Table { rows }], 800));
        assert!(c.len() > 3);
        for t in &c {
            assert!(t.len() <= 800, "{t}");
            assert!(t.starts_with("| Name | Price |\n| --- | --- |"), "{t}");
        }
        let data: usize = c.iter().map(|t| t.lines().count() - 2).sum();
        assert_eq!(data, 200);
    }

    #[test]
    fn a_long_paragraph_and_code_block_are_split_between_words_and_lines() {
        let words = "lorem ipsum dolor ".repeat(200);
        let code = (0..300)
            .map(|n| format!("line {n}"))
            .collect::<Vec<_>>()
            .join("\n");
        let blocks = vec![
            Block::Paragraph(text(&words)),
            Block::Code {
                lang: None,
                text: code,
            },
        ];
        let c = rendered(&chunks(&blocks, 500));
        assert!(c.iter().all(|t| t.len() <= 500), "{c:?}");
        let prose: String = c
            .iter()
            .filter(|t| !t.starts_with("```"))
            .cloned()
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(prose.split_whitespace().count(), 600);
        let code_lines: usize = c
            .iter()
            .filter(|t| t.starts_with("```"))
            .map(|t| t.lines().count() - 2)
            .sum();
        assert_eq!(code_lines, 300);
    }

    #[test]
    fn element_pages_list_what_page_one_did_not_in_document_order() {
        // 650 elements; page 1 listed the first 150 and 50 in-viewport ones further down.
        let mut first = vec![false; 650];
        first[..150].iter_mut().for_each(|f| *f = true);
        first[400..450].iter_mut().for_each(|f| *f = true);
        assert_eq!(element_pages(650, 200), 4);
        let p2 = element_page(&first, 2);
        assert_eq!((p2.len(), p2[0], p2[199]), (200, 150, 349));
        let p3 = element_page(&first, 3);
        assert_eq!((p3[0], p3[49], p3[50]), (350, 399, 450));
        let p4 = element_page(&first, 4);
        assert_eq!((p4.len(), p4[49]), (50, 649));
        assert!(element_page(&first, 5).is_empty());
        assert_eq!(element_pages(200, 200), 1);
    }
}

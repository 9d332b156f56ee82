// The page script of extract's first Runtime.evaluate, called with (maxNodes, sliceUnits, withText)
// by `page_info_expression_of` in src/extract/page.rs; the benchmark (crates/bench) sends the same one.
// innerText walks the whole rendered page and is the biggest string of the answer: read only when asked.
(maxNodes, sliceUnits, withText) => {
  const t = withText && document.body ? document.body.innerText : '';
  let n = 1;
  try {
    const w = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
    while (n <= maxNodes && w.nextNode()) n++;
  } catch (e) {
    n = -1;
  }
  return { url: location.href, title: document.title, width: innerWidth, height: innerHeight,
           text: t.slice(0, sliceUnits), textLength: t.length, nodes: n };
}

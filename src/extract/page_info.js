// The page script of extract's first Runtime.evaluate, called with (maxNodes, sliceUnits) by
// `page_info_expression` in src/extract/page.rs; the benchmark (crates/bench) sends the same one.
(maxNodes, sliceUnits) => {
  const t = document.body ? document.body.innerText : '';
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

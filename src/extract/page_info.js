// The page script of extract's first Runtime.evaluate, called with (sliceUnits, withText)
// by `page_info_expression_of` in src/extract/page.rs; the benchmark (crates/bench) sends the same one.
// innerText walks the whole rendered page and is the biggest string of the answer: read only when asked.
// `indeterminate` counts the checkboxes whose `mixed` state only the AX tree knows (not the DOM snapshot).
(sliceUnits, withText) => {
  const t = withText && document.body ? document.body.innerText : '';
  let indeterminate = 0;
  for (const c of document.querySelectorAll('input[type=checkbox i]')) if (c.indeterminate) indeterminate++;
  return { url: location.href, title: document.title, width: innerWidth, height: innerHeight,
           text: t.slice(0, sliceUnits), textLength: t.length, indeterminate };
}

// The dashboard's only script (CSP: script-src 'self'): copy buttons for the secret shown once.
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-copy]");
  if (!button) return;
  var source = document.getElementById(button.getAttribute("data-copy"));
  if (!source) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(
    function () {
      button.textContent = "Copied";
    },
    function () {
      var range = document.createRange();
      range.selectNodeContents(source);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      button.textContent = "Selected: press Ctrl+C";
    },
  );
});

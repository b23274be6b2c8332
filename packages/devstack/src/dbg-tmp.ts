import puppeteer from "puppeteer-core";
(async () => {
  const b = await puppeteer.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox"] });
  const p = await b.newPage();
  await p.goto(process.argv[2]!);
  await new Promise((r) => setTimeout(r, 3000));
  console.log(p.url(), (await p.evaluate(() => document.body.innerText)).slice(0, 500));
  console.log(await p.evaluate(() => [...document.querySelectorAll("input,button,[role=button]")].map((i) => `${i.tagName} ${i.getAttribute("name")} ${i.id} ${i.getAttribute("type")} ${i.className}`).join("\n")));
  await b.close();
})();

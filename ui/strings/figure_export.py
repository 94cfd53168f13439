"""Strings of the figure download menu (ui/widgets/figure_export.py)."""

STRINGS = {
    "fx_menu": {"en": "⋮ Download", "zh": "⋮ 下载"},
    "fx_intro": {"en": "Vector files of this figure, for papers and slides.",
                 "zh": "此图的矢量文件，可用于论文和幻灯片。"},
    "fx_prepare": {"en": "Prepare SVG / PDF", "zh": "生成 SVG / PDF"},
    "fx_preparing": {"en": "Drawing the figure in the browser…", "zh": "正在浏览器中绘制此图……"},
    "fx_svg": {"en": "SVG", "zh": "SVG"},
    "fx_pdf": {"en": "PDF", "zh": "PDF"},
    "fx_camera": {"en": "The camera icon above the chart saves an SVG of what you see, instantly.",
                  "zh": "图表上方的相机图标可即时保存当前所见内容的 SVG。"},
    "fx_no_browser": {
        "en": "SVG and PDF files need Chromium or Chrome on the server, and none was found (install the "
              "`chromium` package or set CHROMIUM_PATH); the camera icon above the chart still saves an SVG.",
        "zh": "生成 SVG 和 PDF 文件需要服务器上装有 Chromium 或 Chrome，但没有找到（请安装 `chromium` 软件包或设置 "
              "CHROMIUM_PATH）；图表上方的相机图标仍可保存 SVG。"},
    "fx_no_kaleido": {
        "en": "SVG and PDF files need the `kaleido` package, which is not installed (pip install -r "
              "requirements.txt); the camera icon above the chart still saves an SVG.",
        "zh": "生成 SVG 和 PDF 文件需要 `kaleido` 软件包，但它尚未安装（pip install -r requirements.txt）；"
              "图表上方的相机图标仍可保存 SVG。"},
    "fx_busy": {"en": "Another figure is being drawn on this server; try again in a few seconds.",
                "zh": "服务器正在绘制另一张图，请几秒钟后再试。"},
    "fx_timeout": {"en": "Drawing the figure took too long and was stopped; try again, or use the camera icon "
                         "above the chart.",
                   "zh": "绘制此图耗时过长，已被停止；请重试，或使用图表上方的相机图标。"},
    "fx_failed": {"en": "The figure could not be drawn as a file; the camera icon above the chart still saves "
                        "an SVG.",
                  "zh": "无法把此图保存为文件；图表上方的相机图标仍可保存 SVG。"},
}
